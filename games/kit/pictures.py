"""Write every game's rules pictures next to its RULES.md (``games/<game>/pictures/*.svg``),
drawn by the game's own renderer from its example positions (``games.kit.learn``), so the rules
show them wherever Markdown is read. A test checks the committed files against the renderer;
run ``python -m games.kit.pictures`` after changing an example or a renderer."""

from __future__ import annotations

from games.kit.learn import example_view
from games.kit.registry import games


def write() -> list[str]:
    written = []
    for spec in games().values():
        if spec.rules is None:
            continue
        folder = spec.rules.parent / "pictures"
        for example in spec.learning.examples:
            folder.mkdir(exist_ok=True)
            path = folder / f"{example.name}.svg"
            path.write_text(spec.render(example_view(spec.engine, spec.learning, example), None),
                            encoding="utf-8")
            written.append(str(path))
    return written


if __name__ == "__main__":
    import importlib

    importlib.import_module("games.catalog")  # registers the built-in games

    for name in write():
        print(name)
