"""Create (or refresh) a bot account for every game and level; safe to run any number of times."""

from django.core.management.base import BaseCommand

from games.bot_services import bot_accounts_ensure


class Command(BaseCommand):
    help = "Create or update the bot accounts of every game and level."

    def handle(self, *args, **options) -> None:
        bots = bot_accounts_ensure()
        self.stdout.write(f"{len(bots)} bot accounts ready: "
                          + ", ".join(bot.username for bot in bots))
