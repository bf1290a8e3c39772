"""pods/exec and pods/attach over WebSocket: the channel protocol of k8s.io/apimachinery's wsstream, bridged to
a hijacked Docker exec/attach stream.

Every binary message starts with its channel byte: 0 stdin, 1 stdout, 2 stderr, 3 error (a metav1.Status as
JSON, written once when the command ends), 4 resize (JSON {"Width","Height"}). v5.channel.k8s.io adds channel
255: a client message [255, n] closes channel n, which is how a v5 client says "stdin is done" (v4 has no way).
"""

import asyncio
import json
import logging
import os

from aiohttp import WSMsgType, web

import kubestatus
from docker_api import DockerError, demultiplex

V5 = "v5.channel.k8s.io"
V4 = "v4.channel.k8s.io"
STDIN, STDOUT, STDERR, ERROR, RESIZE, CLOSE = 0, 1, 2, 3, 4, 255

log = logging.getLogger("remotecommand")


def _flag(request, name):
    return request.query.get(name, "").lower() in ("1", "true")


class RemoteCommand:
    def __init__(self, docker, state_dir):
        self.docker = docker
        self._protocol_log = os.path.join(state_dir, "stream-protocols.log")

    def _record(self, what):
        # Tests read this to prove a client used WebSocket (and which subprotocol), not SPDY.
        with open(self._protocol_log, "a", encoding="utf-8") as f:
            f.write(what + "\n")

    async def upgrade(self, request):
        """The WebSocket, or a StatusError when the request is not a WebSocket upgrade we speak."""
        upgrade = request.headers.get("Upgrade", "").lower()
        if upgrade != "websocket":
            self._record(f"refused {upgrade or 'plain'}")
            # Only WebSocket streaming is served; a SPDY client gets the error a server without SPDY would give.
            raise kubestatus.bad_request("Upgrade request required")
        ws = web.WebSocketResponse(protocols=(V5, V4), autoping=True, max_msg_size=0)
        if ws.can_prepare(request).protocol is None:
            offered = request.headers.get("Sec-WebSocket-Protocol", "")
            self._record(f"refused websocket [{offered}]")
            raise kubestatus.bad_request(f"unable to upgrade: no supported subprotocol in [{offered}], "
                                         f"expected one of {V5}, {V4}")
        await ws.prepare(request)
        self._record(f"websocket {ws.ws_protocol}")
        return ws

    async def exec(self, request, container_id, command):
        stdin, stdout, stderr, tty = (_flag(request, n) for n in ("stdin", "stdout", "stderr", "tty"))
        created = await self.docker.request("POST", f"/containers/{container_id}/exec", body={
            "AttachStdin": stdin, "AttachStdout": stdout, "AttachStderr": stderr, "Tty": tty, "Cmd": command})
        exec_id = created["Id"]
        ws = await self.upgrade(request)
        try:
            reader, writer = await self.docker.hijack(f"/exec/{exec_id}/start", body={"Detach": False, "Tty": tty})
        except DockerError as error:
            await self._finish(ws, _internal(str(error)))
            return ws
        resize = lambda w, h: self.docker.request("POST", f"/exec/{exec_id}/resize", params={"h": h, "w": w})
        await self._bridge(ws, reader, writer, stdin, stdout, stderr, tty, resize)
        await self._finish(ws, await self._exec_status(exec_id, command))
        return ws

    async def attach(self, request, container_id):
        stdin, stdout, stderr, tty = (_flag(request, n) for n in ("stdin", "stdout", "stderr", "tty"))
        ws = await self.upgrade(request)
        params = {"stream": "1", "stdin": int(stdin), "stdout": int(stdout), "stderr": int(stderr)}
        try:
            reader, writer = await self.docker.hijack(f"/containers/{container_id}/attach", params=params)
        except DockerError as error:
            await self._finish(ws, _internal(str(error)))
            return ws
        resize = lambda w, h: self.docker.request("POST", f"/containers/{container_id}/resize",
                                                  params={"h": h, "w": w})
        await self._bridge(ws, reader, writer, stdin, stdout, stderr, tty, resize)
        # Attach reports no exit code (kubelet writes Success); the container's is in the pod's status.
        await self._finish(ws, kubestatus.success_status())
        return ws

    async def _bridge(self, ws, reader, writer, stdin, stdout, stderr, tty, resize):
        # The server's first message: an empty one on the lowest writable channel says the streams are ready.
        first = STDOUT if stdout else (STDERR if stderr else ERROR)
        await ws.send_bytes(bytes([first]))
        to_client = asyncio.ensure_future(self._pump_output(ws, reader, tty))
        from_client = asyncio.ensure_future(self._pump_input(ws, writer, stdin, resize))
        # Either the command's output ends (then its status follows) or the client closes the WebSocket (then
        # nobody is listening any more and the stream ends, as on the real server).
        await asyncio.wait({to_client, from_client}, return_when=asyncio.FIRST_COMPLETED)
        for task in (to_client, from_client):
            task.cancel()
        await asyncio.gather(to_client, from_client, return_exceptions=True)
        writer.close()

    async def _pump_output(self, ws, reader, tty):
        if tty:
            while chunk := await reader.read(65536):
                await ws.send_bytes(bytes([STDOUT]) + chunk)
            return
        async for stream, data in demultiplex(reader):
            if ws.closed:
                return
            await ws.send_bytes(bytes([STDERR if stream == 2 else STDOUT]) + data)

    async def _pump_input(self, ws, writer, stdin, resize):
        stdin_open = stdin
        if not stdin:
            writer.write_eof()
        async for message in ws:
            # Text frames carry channels too: the Python client sends its stdin that way (wsstream reads both).
            data = message.data.encode() if message.type == WSMsgType.TEXT else message.data
            if message.type not in (WSMsgType.BINARY, WSMsgType.TEXT) or not data:
                continue
            channel, payload = data[0], data[1:]
            if channel == STDIN and stdin_open:
                writer.write(payload)
                await writer.drain()
            elif channel == RESIZE:
                try:
                    size = json.loads(payload)
                    await resize(size.get("Width", 80), size.get("Height", 24))
                except (ValueError, DockerError):
                    pass  # a resize before the process runs, or a bad size: the real server ignores it too
            elif channel == CLOSE and ws.ws_protocol == V5 and payload[:1] == bytes([STDIN]) and stdin_open:
                stdin_open = False
                writer.write_eof()

    async def _exec_status(self, exec_id, command):
        for _ in range(100):
            info = await self.docker.request("GET", f"/exec/{exec_id}/json")
            if not info.get("Running"):
                break
            await asyncio.sleep(0.05)
        code = info.get("ExitCode")
        if code == 0:
            return kubestatus.success_status()
        # What kubelet writes for a non-zero exit (remotecommand NonZeroExitCodeReason / ExitCodeCauseType).
        return {"metadata": {}, "status": "Failure",
                "message": f"command terminated with non-zero exit code: error executing command {_go_list(command)}, "
                           f"exit code {code}",
                "reason": "NonZeroExitCode",
                "details": {"causes": [{"reason": "ExitCode", "message": str(code)}]}}

    @staticmethod
    async def _finish(ws, status):
        if not ws.closed:
            try:
                await ws.send_bytes(bytes([ERROR]) + kubestatus.compact_json(status))
                await ws.close()
            except ConnectionError:
                pass


def _go_list(items):
    return "[" + " ".join(items) + "]"


def _internal(message):
    return {"metadata": {}, "status": "Failure", "message": f"Internal error occurred: {message}",
            "reason": "InternalError", "details": {"causes": [{"message": message}]}, "code": 500}
