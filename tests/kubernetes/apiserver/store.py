"""An in-memory object store with etcd-like resourceVersions and watch fan-out.

Every write bumps one global counter, as etcd's revision does, so a client can list at version N and watch
from N without missing an event in between. The event history is kept whole (a test server lives minutes) unless
a limit is given: then, like etcd after compaction, a watch from before the oldest kept event is refused with
410 Expired, so clients' recovery (list again, watch from there) can be tested.
"""

import asyncio
import copy
import datetime
import uuid

import kubestatus


def now_rfc3339():
    return datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")


class Store:
    def __init__(self, history_limit=None):
        self._history_limit = history_limit
        self._objects = {}  # (resource, namespace, name) -> object
        self._version = 0
        self._history = []  # (version, resource, namespace, event type, object snapshot)
        self._watchers = set()

    @property
    def version(self):
        return str(self._version)

    def get(self, resource, namespace, name):
        obj = self._objects.get((resource, namespace, name))
        return copy.deepcopy(obj) if obj else None

    def list(self, resource, namespace):
        return [copy.deepcopy(o) for (r, ns, _), o in sorted(self._objects.items())
                if r == resource and (namespace is None or ns == namespace)]

    def count(self, resource, namespace):
        return sum(1 for (r, ns, _) in self._objects if r == resource and ns == namespace)

    def create(self, resource, obj):
        meta = obj["metadata"]
        meta["uid"] = str(uuid.uuid4())
        meta["creationTimestamp"] = now_rfc3339()
        return self._write(resource, obj, "ADDED")

    def update(self, resource, obj):
        return self._write(resource, obj, "MODIFIED")

    def delete(self, resource, namespace, name):
        obj = self._objects.pop((resource, namespace, name), None)
        if obj is None:
            return None
        self._version += 1
        obj["metadata"]["resourceVersion"] = str(self._version)
        self._publish(resource, namespace, "DELETED", obj)
        return copy.deepcopy(obj)

    def _write(self, resource, obj, event):
        self._version += 1
        meta = obj["metadata"]
        meta["resourceVersion"] = str(self._version)
        self._objects[(resource, meta.get("namespace", ""), meta["name"])] = copy.deepcopy(obj)
        self._publish(resource, meta.get("namespace", ""), event, obj)
        return copy.deepcopy(obj)

    def _publish(self, resource, namespace, event, obj):
        snapshot = copy.deepcopy(obj)
        self._history.append((self._version, resource, namespace, event, snapshot))
        if self._history_limit is not None and len(self._history) > self._history_limit:
            del self._history[:len(self._history) - self._history_limit]
        for watcher in list(self._watchers):
            watcher.offer(resource, namespace, event, snapshot)

    def watch(self, resource, namespace, matches, since):
        """A Watcher fed with the events after version `since` and then live ones; with `since` unset or "0" it
        starts with a synthetic ADDED for each object that exists now, as the real server does."""
        watcher = Watcher(self, resource, namespace, matches)
        if since in ("", "0", None):
            for obj in self.list(resource, namespace):
                watcher.offer(resource, obj["metadata"].get("namespace", ""), "ADDED", obj)
        else:
            start = int(since)
            oldest = self._history[0][0] if self._history else self._version + 1
            if start < oldest - 1:
                # The events after `since` are no longer all known: etcd's compaction answer.
                watcher.queue.put_nowait({"type": "ERROR", "object": kubestatus.expired(
                    f"too old resource version: {start} ({oldest - 1})")})
                watcher.expired = True
                return watcher
            for version, r, ns, event, obj in self._history:
                if version > start:
                    watcher.offer(r, ns, event, copy.deepcopy(obj))
        self._watchers.add(watcher)
        return watcher


class Watcher:
    def __init__(self, store, resource, namespace, matches):
        self._store = store
        self._resource = resource
        self._namespace = namespace
        self._matches = matches
        self.queue = asyncio.Queue()
        self.expired = False  # holds only the 410 ERROR event: the stream ends after it

    def offer(self, resource, namespace, event, obj):
        if resource != self._resource or (self._namespace is not None and namespace != self._namespace):
            return
        if self._matches(obj):
            self.queue.put_nowait({"type": event, "object": obj})

    def close(self):
        self._store._watchers.discard(self)
