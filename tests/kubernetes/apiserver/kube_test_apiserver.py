#!/usr/bin/python3
"""A Kubernetes API server for tests: the real wire protocol over TLS, each pod a Docker container.

No cluster can run on the test machines, so the backend's tests (and kubectl and the official Python client,
which prove this server speaks the protocol) run against this. Usage:

    kube_test_apiserver.py --state-dir DIR [--port 0] [--pod-pids-limit 256] [--max-pods N] ...

It writes DIR/kubeconfig and its credentials, prints `READY https://127.0.0.1:PORT` once it listens, and on
SIGTERM or SIGINT removes every Docker container and volume it created before it exits.
"""

import argparse
import asyncio
import logging
import os
import signal
import ssl
import sys
import uuid

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from aiohttp import web  # noqa: E402

from apiserver import ApiServer  # noqa: E402
from credentials import Credentials  # noqa: E402
from docker_api import Docker  # noqa: E402
from pod_runtime import PodRuntime  # noqa: E402
from store import Store  # noqa: E402


def parse_arguments():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--state-dir", required=True, help="where the kubeconfig, certificates and tokens go")
    parser.add_argument("--port", type=int, default=0, help="0 picks a free port")
    parser.add_argument("--docker-socket", default="/var/run/docker.sock")
    parser.add_argument("--pod-pids-limit", type=int, default=256,
                        help="the node's per-pod process limit, like kubelet's podPidsLimit")
    parser.add_argument("--ulimit", action="append", default=[], metavar="NAME=SOFT:HARD",
                        help="a ulimit of every container, like a container runtime's defaults "
                             "(default nofile=1024:1024 and nproc=1024:1024)")
    parser.add_argument("--max-pods", type=int, default=None,
                        help="a ResourceQuota of N pods per namespace: creating one more is refused with 403")
    parser.add_argument("--quota-name", default="pod-quota")
    parser.add_argument("--namespace", action="append", default=[], help="another namespace to serve")
    parser.add_argument("--seccomp-root", default=None,
                        help="where Localhost seccomp profiles are looked up (kubelet: /var/lib/kubelet/seccomp); "
                             "default STATE_DIR/seccomp")
    parser.add_argument("--runtime-class", action="append", default=[], metavar="NAME=DOCKER_RUNTIME",
                        help="a RuntimeClass the node offers, mapped to a Docker runtime")
    parser.add_argument("--watch-history", type=int, default=None, metavar="N",
                        help="keep only the last N events: a watch from an older resourceVersion gets 410 Expired")
    parser.add_argument("--metrics-api", choices=["served", "absent", "unavailable"], default="served",
                        help="metrics.k8s.io: served (as by metrics-server), absent (no metrics-server: 404), or "
                             "unavailable (its APIService registered but down: 503 from the aggregator)")
    parser.add_argument("--pod-network", default="bridge", metavar="DOCKER_NETWORK",
                        help="the Docker network of the pods that may reach the network (a node's pod network; "
                             "it must exist when such a pod starts)")
    parser.add_argument("--verbose", action="store_true")
    return parser.parse_args()


def ulimits(specs):
    result = {"nofile": (1024, 1024), "nproc": (1024, 1024)}
    for spec in specs:
        name, values = spec.split("=", 1)
        soft, hard = values.split(":", 1) if ":" in values else (values, values)
        result[name] = (int(soft), int(hard))
    return [(name, soft, hard) for name, (soft, hard) in result.items()]


async def serve(args):
    state_dir = os.path.abspath(args.state_dir)
    os.makedirs(state_dir, exist_ok=True)
    seccomp_root = os.path.abspath(args.seccomp_root or os.path.join(state_dir, "seccomp"))
    os.makedirs(seccomp_root, exist_ok=True)
    credentials = Credentials(state_dir)
    credentials.generate()

    tls = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    tls.load_cert_chain(credentials.server_cert_file, credentials.server_key_file)
    tls.load_verify_locations(credentials.ca_file)
    tls.verify_mode = ssl.CERT_OPTIONAL  # a client certificate is one way to log in, a bearer token the other

    docker = Docker(args.docker_socket)
    await docker.start()
    store = Store(args.watch_history)
    runtimes = {"": None}
    for spec in args.runtime_class:
        name, runtime = spec.split("=", 1)
        runtimes[name] = runtime
    runtime = PodRuntime(store, docker, {
        "state_dir": state_dir, "pids_limit": args.pod_pids_limit, "ulimits": ulimits(args.ulimit),
        "seccomp_root": seccomp_root, "instance": uuid.uuid4().hex[:12], "runtimes": runtimes,
        "pod_network": args.pod_network})
    await runtime.remove_leftovers()

    options = {"state_dir": state_dir, "max_pods": args.max_pods, "quota_name": args.quota_name,
               "namespaces": ["default", "kube-system", "kube-public", "kube-node-lease"] + args.namespace,
               "runtimes": runtimes, "server_address": "", "metrics_api": args.metrics_api}
    api = ApiServer(store, runtime, docker, credentials, options)
    runner = web.AppRunner(api.app(), access_log=logging.getLogger("access") if args.verbose else None,
                           handle_signals=False)
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", args.port, ssl_context=tls)
    await site.start()
    port = site._server.sockets[0].getsockname()[1]
    url = f"https://127.0.0.1:{port}"
    options["server_address"] = f"127.0.0.1:{port}"
    credentials.write_kubeconfig(url)
    print(f"READY {url}", flush=True)

    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(sig, stop.set)
    await stop.wait()
    logging.getLogger("apiserver").info("stopping: removing the pods' containers")
    await runtime.remove_all()
    await runner.cleanup()
    await docker.close()


def main():
    args = parse_arguments()
    logging.basicConfig(level=logging.INFO if args.verbose else logging.WARNING, stream=sys.stderr,
                        format="kube-test-apiserver %(name)s: %(message)s")
    asyncio.run(serve(args))


if __name__ == "__main__":
    main()
