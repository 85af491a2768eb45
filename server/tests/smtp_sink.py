"""SMTP sink for the server's end-to-end tests (aiosmtpd, PyPI).

Listens on 127.0.0.1 on a port the kernel picks (never one a test guessed as free), writes
every message into the maildir given as the first argument, and prints the port on its first
line of output so that the test reads it instead of assuming it.
"""

import asyncio
import sys

from aiosmtpd.handlers import Mailbox
from aiosmtpd.smtp import SMTP


async def main(maildir: str) -> None:
    handler = Mailbox(maildir)
    loop = asyncio.get_running_loop()
    server = await loop.create_server(lambda: SMTP(handler), host="127.0.0.1", port=0)
    print(server.sockets[0].getsockname()[1], flush=True)
    await server.serve_forever()


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1]))
