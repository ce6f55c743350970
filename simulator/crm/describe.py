"""Human- and agent-readable descriptions of an org's schema (what `crmarena org describe` prints)."""

from __future__ import annotations

from .schema import Field, Schema, SObject


def _field_line(obj: SObject, f: Field) -> str:
    kind = f.type
    if f.reference_to:
        kind = f"reference to {f.reference_to}; parent path {f.relationship_name}.<field>"
    elif f.picklist:
        kind = f"picklist: {', '.join(f.picklist)}"
    desc = f" - {f.description}" if f.description else ""
    return f"  {f.name} ({kind}){desc}"


def describe_object(schema: Schema, obj: SObject) -> str:
    """One object: its fields with types and descriptions, and its child relationships."""
    lines = [f"{obj.name} ({obj.label}, Id prefix {obj.key_prefix}): {obj.description}", "Fields:"]
    lines += [_field_line(obj, f) for f in obj.fields]
    if obj.children:
        lines.append("Child relationships (for subqueries):")
        lines += [f"  {c.name} -> {c.child_object}.{c.field}" for c in obj.children]
    return "\n".join(lines)


def describe_schema(schema: Schema, *, detailed: bool = False) -> str:
    """All objects: one line each, or (`detailed`) every object's fields: the agents' schema text."""
    if detailed:
        return "\n\n".join(describe_object(schema, o) for o in schema.objects)
    width = max(len(o.name) for o in schema.objects)
    return "\n".join(f"{o.name:<{width}}  {o.description}" for o in schema.objects)
