"""meta.k8s.io/v1 Table output for pods: what `kubectl get pods` asks for (Accept: ...;as=Table) and prints as its
columns, computed server-side as the real server does."""

import copy
import datetime


def _age(timestamp):
    started = datetime.datetime.strptime(timestamp, "%Y-%m-%dT%H:%M:%SZ").replace(tzinfo=datetime.timezone.utc)
    seconds = int((datetime.datetime.now(datetime.timezone.utc) - started).total_seconds())
    if seconds < 120:
        return f"{seconds}s"
    if seconds < 3600:
        return f"{seconds // 60}m"
    return f"{seconds // 3600}h"


def _pod_status_text(pod):
    """The STATUS column of `kubectl get pods`: a waiting or terminated reason wins over the phase."""
    if pod["metadata"].get("deletionTimestamp"):
        return "Terminating"
    text = pod["status"].get("reason") or pod["status"].get("phase", "Pending")
    for status in pod["status"].get("containerStatuses") or []:
        state = status.get("state") or {}
        if state.get("waiting", {}).get("reason") and state["waiting"]["reason"] != "ContainerCreating":
            text = state["waiting"]["reason"]
        elif state.get("waiting"):
            text = "ContainerCreating" if pod["spec"].get("nodeName") else text
        elif state.get("terminated", {}).get("reason"):
            text = state["terminated"]["reason"]
    return text


def pod_table(pods, include_object):
    rows = []
    for pod in pods:
        statuses = pod["status"].get("containerStatuses") or []
        ready = sum(1 for s in statuses if s.get("ready"))
        restarts = sum(s.get("restartCount", 0) for s in statuses)
        if include_object == "Object":
            obj = pod
        else:
            obj = {"kind": "PartialObjectMetadata", "apiVersion": "meta.k8s.io/v1",
                   "metadata": copy.deepcopy(pod["metadata"])}
        rows.append({"cells": [pod["metadata"]["name"], f"{ready}/{len(pod['spec']['containers'])}",
                               _pod_status_text(pod), str(restarts), _age(pod["metadata"]["creationTimestamp"])],
                     "object": obj})
    columns = [("Name", "string", "name"), ("Ready", "string", ""), ("Status", "string", ""),
               ("Restarts", "string", ""), ("Age", "string", "")]
    return {"kind": "Table", "apiVersion": "meta.k8s.io/v1", "metadata": {"resourceVersion": "0"},
            "columnDefinitions": [{"name": n, "type": t, "format": f, "description": "", "priority": 0}
                                  for n, t, f in columns],
            "rows": rows}
