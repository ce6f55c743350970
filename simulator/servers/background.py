"""An ASGI app served by uvicorn on a thread of this process (tests, and the tool gateway of remote
agents): bound to 127.0.0.1 on a free port unless told otherwise, stopped on exit of the `with`."""

from __future__ import annotations

import threading
import time
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import socket


class BackgroundServer:
    """`with BackgroundServer(app) as server:` serves `app` at `server.url` until the block ends."""

    def __init__(self, app: Any, *, host: str = "127.0.0.1", port: int = 0, start_timeout_s: float = 20.0):
        import uvicorn

        config = uvicorn.Config(
            app,
            host=host,
            port=port,
            log_level="warning",
            access_log=False,
            lifespan="auto",
            timeout_graceful_shutdown=2,
        )
        self._server = uvicorn.Server(config)
        self._thread = threading.Thread(target=self._server.run, name="crmarena-server", daemon=True)
        self._start_timeout_s = start_timeout_s
        self.host = host
        self.port = port

    @property
    def url(self) -> str:
        return f"http://{self.host}:{self.port}"

    def start(self) -> BackgroundServer:
        self._thread.start()
        deadline = time.monotonic() + self._start_timeout_s
        while not self._server.started:
            if not self._thread.is_alive() or time.monotonic() > deadline:
                raise RuntimeError(f"the server on {self.host}:{self.port} did not start")
            time.sleep(0.01)
        self.port = self._server.servers[0].sockets[0].getsockname()[1]
        return self

    def stop(self) -> None:
        self._server.should_exit = True
        self._thread.join(timeout=10)

    def __enter__(self) -> BackgroundServer:
        return self.start()

    def __exit__(self, *_: Any) -> None:
        self.stop()


def listen(host: str, port: int) -> socket.socket:
    """A TCP socket listening on host:port (port 0: a free one), so the URL printed before the server
    runs already takes connections; OSError (with a hint for a busy port) when it cannot."""
    import socket

    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    # (proto named: asyncio sets TCP_NODELAY on accepted connections only when it is IPPROTO_TCP; with
    # proto 0 every reply waits on delayed ACKs, about 40 ms a call)
    sock = socket.socket(family, socket.SOCK_STREAM, socket.IPPROTO_TCP)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind((host, port))
        sock.listen(128)
    except OSError as exc:
        sock.close()
        raise OSError(
            f"cannot listen on {host}:{port}: {exc.strerror or exc}"
            f"{' (give another --port)' if exc.errno == 98 else ''}"
        ) from None
    return sock


def url_of(sock: socket.socket) -> str:
    """The http:// URL of a listening socket."""
    host, port = sock.getsockname()[:2]
    return f"http://{f'[{host}]' if ':' in host else host}:{port}"


def serve_forever(app: Any, sock: socket.socket, **config: Any) -> None:
    """Serve `app` on `sock` with uvicorn until interrupted (quiet logs; `config`: more uvicorn settings)."""
    import uvicorn

    uvicorn.Server(
        uvicorn.Config(app, log_level="warning", access_log=False, timeout_graceful_shutdown=2, **config)
    ).run(sockets=[sock])
