"""The few Docker Engine API calls the pod runtime needs, over the Unix socket, plus hijacked streams.

Attach and exec streams are raw HTTP upgrades on their own socket: aiohttp's client cannot hand over the
connection, and half-closing it (write_eof) is how Docker learns that stdin ended.
"""

import asyncio
import json
import struct
import urllib.parse

import aiohttp

API = "/v1.41"


class DockerError(Exception):
    def __init__(self, status, message):
        super().__init__(message)
        self.status = status


class Docker:
    def __init__(self, socket_path):
        self.socket_path = socket_path
        self._session = None

    async def start(self):
        self._session = aiohttp.ClientSession(connector=aiohttp.UnixConnector(path=self.socket_path),
                                              timeout=aiohttp.ClientTimeout(total=None))

    async def close(self):
        await self._session.close()

    async def request(self, method, path, *, params=None, body=None, raw=False, timeout=None):
        url = "http://docker" + API + path
        async with self._session.request(method, url, params=params, json=body,
                                         timeout=aiohttp.ClientTimeout(total=timeout)) as response:
            data = await response.read()
            if response.status >= 400:
                try:
                    message = json.loads(data).get("message", data.decode(errors="replace"))
                except ValueError:
                    message = data.decode(errors="replace")
                raise DockerError(response.status, message)
            if raw:
                return data
            return json.loads(data) if data.strip() else None

    async def stream_lines(self, method, path, params=None):
        """Yields the JSON lines of a streaming answer (image pull progress)."""
        url = "http://docker" + API + path
        async with self._session.request(method, url, params=params) as response:
            if response.status >= 400:
                body = await response.read()
                try:
                    message = json.loads(body).get("message", "")
                except ValueError:
                    message = body.decode(errors="replace")
                raise DockerError(response.status, message)
            async for line in response.content:
                if line.strip():
                    yield json.loads(line)

    async def stream_raw(self, path, params=None):
        """Yields the body of a streaming answer chunk by chunk (logs with follow)."""
        url = "http://docker" + API + path
        async with self._session.get(url, params=params) as response:
            if response.status >= 400:
                raise DockerError(response.status, (await response.read()).decode(errors="replace"))
            async for chunk in response.content.iter_any():
                yield chunk

    async def hijack(self, path, params=None, body=None):
        """Opens an upgraded (raw) stream; returns (reader, writer) positioned after the HTTP headers."""
        reader, writer = await asyncio.open_unix_connection(self.socket_path)
        query = ("?" + urllib.parse.urlencode(params)) if params else ""
        payload = json.dumps(body).encode() if body is not None else b""
        head = (f"POST {API}{path}{query} HTTP/1.1\r\nHost: docker\r\nConnection: Upgrade\r\nUpgrade: tcp\r\n"
                f"Content-Type: application/json\r\nContent-Length: {len(payload)}\r\n\r\n")
        writer.write(head.encode() + payload)
        await writer.drain()
        status_line = await reader.readline()
        while (await reader.readline()) not in (b"\r\n", b"\n", b""):
            pass
        code = int(status_line.split()[1]) if len(status_line.split()) > 1 else 0
        if code not in (101, 200):
            rest = await reader.read(4096)
            writer.close()
            raise DockerError(code, rest.decode(errors="replace").strip())
        return reader, writer


async def demultiplex(reader):
    """Yields (stream, bytes) from Docker's multiplexed stream (8-byte header: stream id, 3 zeros, size)."""
    while True:
        try:
            header = await reader.readexactly(8)
        except asyncio.IncompleteReadError:
            return
        stream, size = header[0], struct.unpack(">I", header[4:])[0]
        try:
            data = await reader.readexactly(size)
        except asyncio.IncompleteReadError as partial:
            data = partial.partial
        yield stream, data


def demultiplex_bytes(data):
    """The same for a complete buffer (a non-following logs answer)."""
    out, offset = [], 0
    while offset + 8 <= len(data):
        stream, size = data[offset], struct.unpack(">I", data[offset + 4:offset + 8])[0]
        out.append((stream, data[offset + 8:offset + 8 + size]))
        offset += 8 + size
    return out
