"""factory_boy factories for the database-backed tests."""

import factory
from rest_framework.authtoken.models import Token

from accounts.models import User


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
    token, _ = Token.objects.get_or_create(user=user)
    return token.key
