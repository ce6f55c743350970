"""Prompt tokens the built-in agents are sent on every model call, by task type and schema mode.

What each model call of an episode repeats: the system prompt (role, tools, the schema or, with
`schema: tool`, the object list, audience, task context) plus, for function calling, the tool
schemas. Counted offline with the real tokenizer (cl100k_base: simulator.models.clients.count_tokens_offline)
over the instances a run poses (the first `--instances` of each task type on each org type). With
`schema: tool` the agent fetches an object's fields with describe: the last columns give what one
describe result costs (median and largest object), paid once per object the episode needs and then
carried in its history.

    python3 benchmarks/prompt_tokens.py [--instances 3] [--scale 1]
"""

from __future__ import annotations

import argparse
import inspect
import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from simulator.agents.prompts import SCHEMA_MODES, system_prompt, tool_names
from simulator.crm.describe import describe_object, describe_schema
from simulator.crm.session import OrgSession
from simulator.crm.tools import CrmTools
from simulator.models.clients import count_tokens_offline
from simulator.runs.config import OrgChoice
from simulator.runs.run import cached_org
from simulator.tasks.generate import generate_instances

PROTOCOLS = {"function_calling": "function", "react": "react"}


def tool_schemas(tools: CrmTools, schema: str) -> list:
    """The tool schemas a function-calling agent sends (autogen's, as FunctionCallingAgent builds them)."""
    from autogen_core.tools import FunctionTool

    return [
        FunctionTool(method, description=inspect.getdoc(method), name=name).schema
        for name in tool_names(schema)
        for method in [getattr(tools, name)]
    ]


def per_call_tokens(org, instance, tools: CrmTools, texts: dict[str, str]) -> dict[tuple[str, str], int]:
    """(agent kind, schema mode) -> tokens of the system prompt and tool schemas of one model call."""
    out = {}
    for kind, protocol in PROTOCOLS.items():
        for mode in SCHEMA_MODES:
            prompt = system_prompt(instance, texts[mode], protocol=protocol, privacy_aware=False, schema=mode)
            schemas = tool_schemas(tools, mode) if protocol == "function" else []
            out[kind, mode] = count_tokens_offline([{"role": "system", "content": prompt}], schemas)
    return out


def measure(instances: int, scale: float) -> tuple[list[list], dict[str, int]]:
    """The table rows (task type, org, each variant's mean tokens per call) and describe result sizes."""
    rows, describe_sizes = [], {}
    for org_type in ("b2b", "b2c"):
        org = cached_org(OrgChoice(org_type, 0, scale), progress=lambda line: print(line, file=sys.stderr))
        texts = {mode: describe_schema(org.schema, detailed=mode == "prompt") for mode in SCHEMA_MODES}
        tools = CrmTools(OrgSession(org))
        for obj in org.schema.objects:
            describe_sizes[f"{org_type}:{obj.name}"] = count_tokens_offline([describe_object(org.schema, obj)]) - 4
        by_task: dict[str, list[dict]] = {}
        for inst in generate_instances(org, instances, seed=0):
            by_task.setdefault(inst.task, []).append(per_call_tokens(org, inst, tools, texts))
        for task, counts in sorted(by_task.items()):
            rows.append(
                [task, org_type]
                + [statistics.mean(c[kind, mode] for c in counts) for kind in PROTOCOLS for mode in SCHEMA_MODES]
            )
    return rows, describe_sizes


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--instances", type=int, default=3, help="instances per task type and org (default 3)")
    parser.add_argument("--scale", type=float, default=1.0, help="org scale (default 1)")
    args = parser.parse_args()
    rows, sizes = measure(args.instances, args.scale)
    variants = [f"{kind} schema={mode}" for kind in PROTOCOLS for mode in SCHEMA_MODES]
    print("| task type | org | " + " | ".join(variants) + " | function_calling tool/prompt |")
    print("|" + "---|" * (len(variants) + 3))
    for task, org_type, *counts in rows:
        print(
            f"| {task} | {org_type} | " + " | ".join(f"{c:,.0f}" for c in counts) + f" | {counts[1] / counts[0]:.2f} |"
        )
    means = [statistics.mean(r[i] for r in rows) for i in range(2, 2 + len(variants))]
    print("| **mean** | | " + " | ".join(f"**{m:,.0f}**" for m in means) + f" | **{means[1] / means[0]:.2f}** |")
    values = sorted(sizes.values())
    print(
        f"\ndescribe(object) result: median {statistics.median(values):,.0f} tokens, largest "
        f"{values[-1]:,} ({max(sizes, key=sizes.get)}), all objects of one org "
        f"{sum(v for k, v in sizes.items() if k.startswith('b2b:')):,} (b2b)"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
