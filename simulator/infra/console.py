"""A person at a terminal (`crmarena play`): lines in, text out, and a way out at any moment.

Ctrl-D (end of input) or Ctrl-C at a prompt is the person leaving: `ask` returns None, so the
caller records the leaving as the episode's outcome instead of a traceback. Ctrl-C while the
program works (a model-backed agent or user thinking) is noted and the person leaves at the next
prompt, once that work is recorded; a second Ctrl-C then stops the command at once. This holds
while `Console.interrupts` does: asyncio's runner would otherwise turn the first SIGINT into a
cancelled task, noticed only after the person presses Enter.
"""

from __future__ import annotations

import signal
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any


class Console:
    """The terminal's standard input and output."""

    def __init__(self) -> None:
        self.prompting = False  # waiting for the person's line
        self.leaving = False  # Ctrl-C was pressed while the program worked: leave at the next prompt

    def say(self, text: str = "") -> None:
        print(text, flush=True)

    def ask(self, prompt: str) -> str | None:
        """One line the person types (without its newline); None when they leave (Ctrl-D, Ctrl-C)."""
        if self.leaving:
            return None
        self.prompting = True
        try:
            return input(prompt)
        except (EOFError, KeyboardInterrupt):
            self.say()
            return None
        finally:
            self.prompting = False

    def interrupted(self, signum: int, frame: Any) -> None:
        """SIGINT: at a prompt, or a second time, KeyboardInterrupt; else leave at the next prompt."""
        if self.prompting or self.leaving:
            raise KeyboardInterrupt
        self.leaving = True
        self.say("\n(Ctrl-C: you leave at the next prompt, once this turn is recorded; Ctrl-C again stops at once)")

    @contextmanager
    def interrupts(self) -> Iterator[None]:
        """Within: SIGINT is `interrupted`'s (asyncio's runner leaves a handler of our own in place)."""
        previous = signal.signal(signal.SIGINT, self.interrupted)
        try:
            yield
        finally:
            signal.signal(signal.SIGINT, previous)
