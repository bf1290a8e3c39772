"""labelSelector and fieldSelector query parameters, with the syntax of k8s.io/apimachinery/pkg/labels and fields."""

import re

import kubestatus

_SET = re.compile(r"^\s*([A-Za-z0-9._/-]+)\s+(in|notin)\s+\(([^)]*)\)\s*$")


def _split(text):
    # Commas separate requirements, except inside the parentheses of a set.
    parts, depth, current = [], 0, ""
    for ch in text:
        if ch == "(":
            depth += 1
        elif ch == ")":
            depth -= 1
        if ch == "," and depth == 0:
            parts.append(current)
            current = ""
        else:
            current += ch
    if current.strip():
        parts.append(current)
    return [p.strip() for p in parts if p.strip()]


def label_matcher(text):
    """A predicate over a labels dict; raises the real 400 for a selector that does not parse."""
    requirements = []
    for part in _split(text or ""):
        match = _SET.match(part)
        if match:
            key, op, values = match.group(1), match.group(2), {v.strip() for v in match.group(3).split(",")}
            requirements.append((key, op, values))
        elif "!=" in part:
            key, value = part.split("!=", 1)
            requirements.append((key.strip(), "notin", {value.strip()}))
        elif "==" in part or "=" in part:
            key, value = part.split("==", 1) if "==" in part else part.split("=", 1)
            requirements.append((key.strip(), "in", {value.strip()}))
        elif part.startswith("!"):
            requirements.append((part[1:].strip(), "!exists", None))
        elif re.match(r"^[A-Za-z0-9._/-]+$", part):
            requirements.append((part, "exists", None))
        else:
            raise kubestatus.bad_request(f"unable to parse requirement: {part}")

    def matches(labels):
        for key, op, values in requirements:
            if op == "in" and labels.get(key) not in values:
                return False
            if op == "notin" and key in labels and labels[key] in values:
                return False
            if op == "exists" and key not in labels:
                return False
            if op == "!exists" and key in labels:
                return False
        return True
    return matches


_POD_FIELDS = {
    "metadata.name": lambda o: o["metadata"].get("name", ""),
    "metadata.namespace": lambda o: o["metadata"].get("namespace", ""),
    "spec.nodeName": lambda o: o.get("spec", {}).get("nodeName", ""),
    "spec.restartPolicy": lambda o: o.get("spec", {}).get("restartPolicy", ""),
    "status.phase": lambda o: o.get("status", {}).get("phase", ""),
}


def field_matcher(text, kind="Pod"):
    requirements = []
    for part in _split(text or ""):
        if "!=" in part:
            key, value = part.split("!=", 1)
            negate = True
        elif "==" in part or "=" in part:
            key, value = part.split("==", 1) if "==" in part else part.split("=", 1)
            negate = False
        else:
            raise kubestatus.bad_request(f"invalid selector: '{text}'; can't understand '{part}'")
        key = key.strip()
        getter = _POD_FIELDS.get(key) if kind == "Pod" else None
        if getter is None and key in ("metadata.name", "metadata.namespace"):
            getter = _POD_FIELDS[key]
        if getter is None:
            raise kubestatus.bad_request(f'"{key}" is not a known field selector: only "metadata.name", '
                                         f'"metadata.namespace"')
        requirements.append((getter, value.strip(), negate))

    def matches(obj):
        return all((getter(obj) != value) if negate else (getter(obj) == value)
                   for getter, value, negate in requirements)
    return matches
