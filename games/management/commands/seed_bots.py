"""Create (or refresh) a bot account for every game and level; safe to run any number of times."""

from django.core.management.base import BaseCommand

from games.management.progress import ProgressBar
from games.services.bots import bot_account_ensure, bot_levels


class Command(BaseCommand):
    help = "Create or update the bot accounts of every game and level."

    def handle(self, *args, **options) -> None:
        wanted = bot_levels()
        bots = []
        with ProgressBar(len(wanted), "bot accounts", stream=self.stderr) as bar:
            for game, level in wanted:
                bots.append(bot_account_ensure(game, level))
                bar.advance()
        self.stdout.write(f"{len(bots)} bot accounts ready: "
                          + ", ".join(bot.username for bot in bots))
