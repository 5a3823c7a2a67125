"""Existing API tokens (Django REST framework's one-per-user ``authtoken_token`` table) move to
``accounts.ApiToken``, so clients holding one keep working. Only each key's digest is kept; the
old rows are deleted, so no plain key stays at rest. A database that never had the old table
has nothing to move."""

import hashlib
from datetime import timedelta

from django.conf import settings
from django.db import migrations
from django.utils import timezone

OLD_TABLE = "authtoken_token"


def move_tokens(apps, schema_editor):
    connection = schema_editor.connection
    if OLD_TABLE not in connection.introspection.table_names():
        return
    ApiToken = apps.get_model("accounts", "ApiToken")
    ttl = getattr(settings, "API_TOKEN_TTL_DAYS", 0)
    expires = timezone.now() + timedelta(days=ttl) if ttl else None
    table = connection.ops.quote_name(OLD_TABLE)
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT key, user_id, created FROM {table}")
        rows = cursor.fetchall()
    ApiToken.objects.bulk_create([
        ApiToken(user_id=user_id, name="token", prefix=key[:8], expires=expires,
                 digest=hashlib.sha256(key.encode()).hexdigest())
        for key, user_id, _created in rows
    ], ignore_conflicts=True)
    with connection.cursor() as cursor:
        cursor.execute(f"DELETE FROM {table}")


class Migration(migrations.Migration):

    dependencies = [
        ("accounts", "0005_api_tokens"),
    ]

    operations = [
        migrations.RunPython(move_tokens, migrations.RunPython.noop, elidable=True),
    ]
