"""The build context: what one family of objects leaves behind for the next ones.

Only compact data is kept (ids, dates, owners, indexes), never prose bodies, so memory
stays small at large scales.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date
from typing import TYPE_CHECKING, Literal, TypedDict

from .common import Clock, Writer

if TYPE_CHECKING:
    from .latent import SalesAgent, ServiceAgent, StateInfo
    from .text import IssueEntry
    from .threads import Policy


class Sizes(TypedDict):
    """An org type's base sizes at scale 1 (transactional objects are multiplied by the scale)."""

    service_agents: int
    sales_agents: int
    accounts: int
    contacts_per_account: tuple[int, int]
    orders_per_account: float
    items_per_order: tuple[int, int]
    cases: int
    leads: int
    opportunities: int
    email_share: float
    chat_share: float
    lead_call_share: float
    opp_call_share: float
    case_hours: float
    cycle_days: float


# Base sizes at scale 1 (transactional objects are multiplied by the scale).
SIZES = {
    "b2b": Sizes(
        service_agents=20,
        sales_agents=20,
        accounts=720,
        contacts_per_account=(2, 4),
        orders_per_account=2.4,
        items_per_order=(1, 3),
        cases=1850,
        leads=1600,
        opportunities=780,
        email_share=0.22,
        chat_share=0.10,
        lead_call_share=0.5,
        opp_call_share=0.55,
        case_hours=60.0,
        cycle_days=80.0,
    ),
    "b2c": Sizes(
        service_agents=24,
        sales_agents=16,
        accounts=3800,
        contacts_per_account=(1, 1),
        orders_per_account=1.45,
        items_per_order=(1, 2),
        cases=4600,
        leads=2600,
        opportunities=950,
        email_share=0.15,
        chat_share=0.16,
        lead_call_share=0.4,
        opp_call_share=0.5,
        case_hours=30.0,
        cycle_days=28.0,
    ),
}

ORDER_SPAN_DAYS = 900  # orders spread over ~2.5 years before as-of
LEAD_SPAN_DAYS = 730  # leads and opportunities over the past ~2 years

OrderItemAt = tuple[int, str, int]  # (time, order item Id, account index) of a regular order's item


@dataclass
class Product:
    idx: int
    id: str
    name: str
    family: str
    price: float
    pbe_id: str  # standard price book entry
    weight: float = 1.0  # popularity


@dataclass
class LeadPlan:
    idx: int
    first: str
    last: str
    company: str | None
    title: str | None
    state: int
    owner: int
    created: int
    status: str
    converted_t: int | None

    @property
    def converted(self) -> int:
        """When the lead was converted (a converted lead's; ValueError for another)."""
        if self.converted_t is None:
            raise ValueError(f"lead {self.idx} was not converted")
        return self.converted_t


@dataclass
class Ctx:
    org: str
    seed: int
    scale: float
    as_of: date
    clock: Clock
    w: Writer
    size: Sizes
    b2b: bool = True
    domain: str = ""
    service_agents: list[ServiceAgent] = field(default_factory=list)
    sales_agents: list[SalesAgent] = field(default_factory=list)
    states: list[StateInfo] = field(default_factory=list)
    state_index: dict[str, int] = field(default_factory=dict)
    state_sales: dict[str, list[int]] = field(default_factory=dict)  # state code -> sales agent indexes covering it
    state_sales_w: dict[str, list[float]] = field(default_factory=dict)  # state code -> pick weights of those agents
    products: list[Product] = field(default_factory=list)
    standard_pb: str = ""
    issues: list[tuple[str, IssueEntry]] = field(default_factory=list)  # (id, issue)
    issue_rates: list[list[list[float]]] = field(default_factory=list)  # [product][quarter index] -> weight per issue
    policies: list[tuple[str, Policy]] = field(default_factory=list)  # (kav id, policy)
    pricing_rules: dict[str, tuple[int, str]] = field(default_factory=dict)  # family -> (max_discount, kav id)
    max_qty_rules: dict[int, tuple[int, str]] = field(default_factory=dict)  # product idx -> (max_quantity, kav id)
    exclusive_rules: list[tuple[tuple[int, int], str]] = field(default_factory=list)  # ((a, b), kav id)
    # accounts (parallel lists, index = account number - 1)
    acc_id: list[str] = field(default_factory=list)
    acc_name: list[str] = field(default_factory=list)
    acc_state: list[int] = field(default_factory=list)  # state index
    acc_created: list[int] = field(default_factory=list)
    acc_owner: list[int] = field(default_factory=list)  # sales agent index
    acc_email: list[str | None] = field(default_factory=list)  # B2C PersonEmail, else None
    acc_contact0: list[int] = field(default_factory=list)  # index of the first contact
    acc_ncontacts: list[int] = field(default_factory=list)
    # contacts (index = contact number - 1)
    con_id: list[str] = field(default_factory=list)
    con_name: list[str] = field(default_factory=list)
    con_email: list[str | None] = field(default_factory=list)
    # regular order items per product: sorted [(t, order item id, account index)]
    items_by_product: list[list[OrderItemAt]] = field(default_factory=list)
    items_by_time: list[tuple[int, str, int, int]] = field(default_factory=list)  # [(t, item id, account, product)]
    # leads converted -> account index
    converted_accounts: list[tuple[int, LeadPlan]] = field(default_factory=list)  # (account idx, lead plan)

    def n(self, key: Literal["accounts", "cases", "leads", "opportunities"], minimum: int = 1) -> int:
        return max(minimum, round(self.size[key] * self.scale))
