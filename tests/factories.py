"""factory_boy factories for the database-backed tests."""

import factory

from accounts.models import User
from accounts.services import token_create


class UserFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = User
        skip_postgeneration_save = True

    username = factory.Sequence(lambda n: f"player{n}")
    password = factory.PostGenerationMethodCall("set_password", "correct-horse-battery")

    @factory.post_generation
    def save_password(obj, create, extracted, **kwargs):
        if create:
            obj.save()


class BotFactory(UserFactory):
    is_bot = True
    username = factory.LazyAttribute(lambda o: f"{o.bot_game}-bot-{o.bot_level}")
    bot_game = "nibble"
    bot_level = 1


def token_for(user: User) -> str:
    """A new API token's key for ``user``."""
    return token_create(user, "test").key
