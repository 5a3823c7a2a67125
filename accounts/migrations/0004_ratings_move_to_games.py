"""Rating and RatingChange become models of the games app, where matches are.

Only Django's model state changes here: the tables stay as they are, with their rows, and
``games.0006_ratings_from_accounts`` takes them over (and renames them)."""

from django.db import migrations


class Migration(migrations.Migration):

    dependencies = [
        ('accounts', '0003_username_case_insensitive'),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.DeleteModel(name='RatingChange'),
                migrations.DeleteModel(name='Rating'),
            ],
        ),
    ]
