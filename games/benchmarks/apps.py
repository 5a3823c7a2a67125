from django.apps import AppConfig


class BenchmarksConfig(AppConfig):
    name = "games.benchmarks"
    label = "benchmarks"
    verbose_name = "Benchmarks"
