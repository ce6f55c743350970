"""A person at a terminal (`crmarena play`): lines in, text out, and a way out at any prompt.

Ctrl-D (end of input) or Ctrl-C at a prompt is the person leaving: `ask` returns None, so the
caller records the leaving as the episode's outcome instead of a traceback. Ctrl-C reaches the
prompt only while `interrupts_at_prompts` holds: asyncio's runner otherwise turns the first
SIGINT into a cancelled task, noticed only after the person presses Enter.
"""

from __future__ import annotations

import signal
from collections.abc import Iterator
from contextlib import contextmanager


class Console:
    """The terminal's standard input and output."""

    def say(self, text: str = "") -> None:
        print(text, flush=True)

    def ask(self, prompt: str) -> str | None:
        """One line the person types (without its newline); None when they leave (Ctrl-D, Ctrl-C)."""
        try:
            return input(prompt)
        except (EOFError, KeyboardInterrupt):
            self.say()
            return None


def _interrupt(signum: int, frame: object) -> None:
    raise KeyboardInterrupt


@contextmanager
def interrupts_at_prompts() -> Iterator[None]:
    """Within: Ctrl-C raises KeyboardInterrupt where the program is (at a prompt, in `ask`), under
    asyncio too (its runner leaves a handler of our own in place)."""
    previous = signal.signal(signal.SIGINT, _interrupt)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)
