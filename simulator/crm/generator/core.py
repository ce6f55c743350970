"""Users, catalog (products, categories, price books), issues, knowledge, territories,
accounts, contacts and the customers' regular orders."""

from __future__ import annotations

import bisect
import math
import random
from typing import TYPE_CHECKING

from .. import ids
from . import articles, records, text, threads
from .common import DAY, HOUR, Row, cumulative, slug, stream, work_time
from .context import ORDER_SPAN_DAYS, Ctx, LeadPlan, OrderItemAt, Product
from .handles import company_domain, email_local, personal_domain, phone, unique_email
from .latent import TERRITORIES, SalesAgent, ServiceAgent, drift, issue_rates, make_states, spread

if TYPE_CHECKING:
    from .articles import Article, Rule

SERVICE_PROFILE = "Service Agent"
SALES_PROFILE = "Sales Agent"
TIMEZONES = ("America/Los_Angeles", "America/Denver", "America/Chicago", "America/New_York")


def poisson(rng: random.Random, mean: float) -> int:
    if mean <= 0:
        return 0
    if mean > 30:
        return max(0, round(rng.gauss(mean, math.sqrt(mean))))  # (round of a float: an int)
    limit, k, p = math.exp(-mean), 0, 1.0
    while True:
        p *= rng.random()
        if p <= limit:
            return k
        k += 1


# --- users ---------------------------------------------------------------------------


def users(ctx: Ctx) -> None:
    rng = stream(ctx.seed, ctx.org, "users")
    w, c = ctx.w, ctx.clock
    growth = max(0.55, ctx.scale**0.2)
    n_service = max(4, round(ctx.size["service_agents"] * growth))
    n_sales = max(4, round(ctx.size["sales_agents"] * growth))
    used: set[tuple[str, str]] = set()
    used_emails: set[str] = set()
    speeds = spread(rng, n_service, 0.8, 1.35)
    transfers = spread(rng, n_service, 0.12, 0.5)
    loads = spread(rng, n_service, 0.45, 1.5)
    # Transfer counts (not rates) are what tasks rank, so busy agents get the lower
    # propensities (loosely: neighbours swapped) to keep the "most transfers" answer varied.
    by_load = sorted(range(n_service), key=lambda i: -loads[i])
    ordered = sorted(transfers)
    for k in range(0, n_service - 1, 2):
        if rng.random() < 0.5:
            ordered[k], ordered[k + 1] = ordered[k + 1], ordered[k]
    for i, v in zip(by_load, ordered):
        transfers[i] = v
    skills = spread(rng, n_sales, 0.2, 0.55)
    cycles = spread(rng, n_sales, 0.8, 1.3)
    deals = spread(rng, n_sales, 0.8, 1.3)
    accepts = spread(rng, n_sales, 0.25, 0.9)
    t_first = -1150 * DAY

    def user_row(first: str, last: str, profile: str, t: int) -> tuple[str, str]:
        email = unique_email(email_local(rng, first, last, consumer=False), ctx.domain, used_emails)
        local = email.partition("@")[0]
        uid = w.new_id("User")
        w.add(
            "User",
            {
                "Id": uid,
                "Name": f"{first} {last}",
                "FirstName": first,
                "LastName": last,
                "Email": email,
                "Phone": phone(rng),
                "Username": f"{local}@{ctx.domain}.crm",
                "Alias": (first[:1] + last[:4]).lower(),
                "ProfileId": profile,
                "TimeZoneSidKey": rng.choice(TIMEZONES),
                "LocaleSidKey": "en_US",
                "EmailEncodingKey": "UTF-8",
                "LanguageLocaleKey": "en_US",
                "CreatedDate": c.dt(t),
            },
        )
        return uid, email

    for i in range(n_service):
        first, last = text.unique(lambda: text.person_name(rng), used)
        start = t_first if rng.random() < 0.75 else -rng.randint(200, 700) * DAY
        start = work_time(rng, start)
        uid, email = user_row(first, last, SERVICE_PROFILE, start)
        ctx.service_agents.append(
            ServiceAgent(
                i,
                uid,
                f"{first} {last}",
                email,
                speeds[i],
                transfers[i],
                loads[i],
                start,
                speed_drift=drift(rng, 0.45),
                transfer_drift=drift(rng, 0.4),
                load_drift=drift(rng, 0.35),
            )
        )
    for i in range(n_sales):
        first, last = text.unique(lambda: text.person_name(rng), used)
        uid, email = user_row(first, last, SALES_PROFILE, work_time(rng, t_first))
        ctx.sales_agents.append(
            SalesAgent(
                i,
                uid,
                f"{first} {last}",
                email,
                skills[i],
                cycles[i],
                deals[i],
                accepts[i],
                skill_drift=drift(rng, 0.4),
                cycle_drift=drift(rng, 0.45),
                deal_drift=drift(rng, 0.5),
            )
        )
    w.done("User")


# --- catalog -------------------------------------------------------------------------


def catalog(ctx: Ctx) -> None:
    rng = stream(ctx.seed, ctx.org, "catalog")
    w, c = ctx.w, ctx.clock
    t0 = -1200 * DAY
    prods = text.products(ctx.org)
    fams: list[str] = []
    for p in prods:
        if p["family"] not in fams:
            fams.append(p["family"])
    # Categories: one per family, in catalog order.
    catalog_id = ids.make_id("0ZS", 1)  # the (single) ProductCatalog
    cat_ids = {}
    for fam in fams:
        cid = w.new_id("ProductCategory")
        cat_ids[fam] = cid
        w.add(
            "ProductCategory",
            {"Id": cid, "Name": fam, "CatalogId": catalog_id, "CreatedDate": c.dt(work_time(rng, t0))},
        )
    w.done("ProductCategory")
    popularity = [1.0 / (r + 1) ** 0.55 for r in range(len(prods))]
    rng.shuffle(popularity)
    for i, p in enumerate(prods):
        pid = w.new_id("Product2")
        mu = 900.0 if ctx.b2b else 85.0
        price = mu * math.exp(rng.gauss(0, 0.9))
        price = round(price, -1) - 0.01 if price > 100 else round(price) - 0.01
        price = max(4.99, price)
        ctx.products.append(Product(i, pid, p["name"], p["family"], round(price, 2), "", popularity[i]))
        w.add(
            "Product2",
            {
                "Id": pid,
                "Name": p["name"],
                "Description": p["description"],
                "Family": p["family"],
                "IsActive": 1,
                "External_ID__c": p["sku"],
                "CreatedDate": c.dt(work_time(rng, t0 + rng.randint(0, 60) * DAY)),
            },
        )
        w.add(
            "ProductCategoryProduct",
            {
                "Id": w.new_id("ProductCategoryProduct"),
                "ProductCategoryId": cat_ids[p["family"]],
                "ProductId": pid,
                "CreatedDate": c.dt(work_time(rng, t0 + 61 * DAY)),
            },
        )
    w.done("Product2", "ProductCategoryProduct")
    # Price books: standard (all products), a partner/member book, and a promotional one.
    books = [
        ("Standard Price Book", "List prices of every product.", None, None, 1.0, 1.0),
        (
            "Partner Price Book" if ctx.b2b else "Member Price Book",
            "Prices for partners and resellers." if ctx.b2b else "Prices for loyalty members.",
            None,
            None,
            0.85,
            0.7,
        ),
        ("Spring Promotion Price Book", "Seasonal promotional prices.", -450 * DAY, -360 * DAY, 0.8, 0.35),
    ]
    for bi, (name, desc, vf, vt, factor, share) in enumerate(books):
        bid = w.new_id("Pricebook2")
        if bi == 0:
            ctx.standard_pb = bid
        created = work_time(rng, t0 + bi * 30 * DAY)
        w.add(
            "Pricebook2",
            {
                "Id": bid,
                "Name": name,
                "Description": desc,
                "IsActive": 1 if vt is None else 0,
                "ValidFrom": c.dt(vf if vf is not None else created),
                "ValidTo": c.dt(vt) if vt is not None else None,
                "CreatedDate": c.dt(created),
            },
        )
        for prod in ctx.products:
            if bi and rng.random() > share:
                continue
            eid = w.new_id("PricebookEntry")
            if bi == 0:
                prod.pbe_id = eid
            w.add(
                "PricebookEntry",
                {
                    "Id": eid,
                    "Name": prod.name,
                    "Pricebook2Id": bid,
                    "Product2Id": prod.id,
                    "UnitPrice": round(prod.price * factor, 2),
                    "IsActive": 1,
                    "CreatedDate": c.dt(created),
                },
            )
    w.done("Pricebook2", "PricebookEntry")
    # Issues.
    for iss in text.issues(ctx.org):
        iid = w.new_id("Issue__c")
        ctx.issues.append((iid, iss))
        w.add(
            "Issue__c",
            {
                "Id": iid,
                "Name": iss["name"],
                "IssueDescription__c": iss["description"],
                "CreatedDate": c.dt(work_time(rng, t0 + rng.randint(0, 30) * DAY)),
            },
        )
    w.done("Issue__c")
    ctx.issue_rates = issue_rates(rng, len(ctx.products), len(ctx.issues))


# --- knowledge -----------------------------------------------------------------------


def knowledge(ctx: Ctx) -> None:
    """Service policies, pricing rules, configuration rules, FAQs, internal-only articles."""
    rng = stream(ctx.seed, ctx.org, "knowledge")
    w, c = ctx.w, ctx.clock
    slugs: set[str] = set()

    def article(title: str, summary: str, body: str, public: bool = True) -> str:
        kid = w.new_id("Knowledge__kav")
        url = text.unique(lambda: slug(title), slugs, tries=0)
        w.add(
            "Knowledge__kav",
            {
                "Id": kid,
                "Title": title,
                "Summary": summary,
                "FAQ_Answer__c": body,
                "UrlName": url.replace(" ", "-"),
                "PublishStatus": "Online",
                "Language": "en_US",
                "IsVisibleInPkb": 1 if public else 0,
                "CreatedDate": c.dt(work_time(rng, -rng.randint(60, 1000) * DAY)),
            },
        )
        return kid

    def paired_article(
        memo: str, side: str, art: Article, public: bool, answer: str | None, confidential: list[str]
    ) -> str:
        """One article of internal article `memo`'s pair (its `side`: "memo" or "faq"), labelled
        "pair" (with its `answer` phrase when `public`), else "internal" with its `confidential` values."""
        kid = article(art["title"], art["summary"], art["body"], public=public)
        if not public:
            w.truth("Knowledge__kav", kid, "internal", list(confidential))
        w.truth("Knowledge__kav", kid, "pair", {"pair": memo, "side": side, "answer": answer if public else None})
        return kid

    for pol in threads.service_policies(ctx.org):
        kid = article(pol["title"], pol["summary"], pol["body"])
        ctx.policies.append((kid, pol))
        w.truth("Knowledge__kav", kid, "service_policy", pol["key"])
    families = sorted({p.family for p in ctx.products}, key=[p.family for p in ctx.products].index)
    caps = [10, 12, 15, 18, 20, 25, 30, 35]
    for fam in families:
        discount = rng.choice(caps)
        rule: Rule = {"kind": "max_discount", "family": fam, "max_discount": discount}
        kid = article(*articles.pricing_rule_article(rng, rule))
        ctx.pricing_rules[fam] = (discount, kid)
        w.truth("Knowledge__kav", kid, "pricing_rule", rule)
    # Configuration rules over popular products: max quantities and exclusive pairs.
    by_pop = sorted(ctx.products, key=lambda p: (-p.weight, p.idx))[:30]
    chosen = rng.sample(by_pop, 14)
    for p in chosen[:6]:
        mx = rng.choice((10, 15, 20, 25, 40, 50)) if ctx.b2b else rng.choice((2, 3, 4))
        rule = {"kind": "max_quantity", "product": p.name, "max_quantity": mx}
        kid = article(*articles.config_rule_article(rng, rule))
        ctx.max_qty_rules[p.idx] = (mx, kid)
        w.truth("Knowledge__kav", kid, "config_rule", rule)
    for a, b in zip(chosen[6::2], chosen[7::2]):
        rule = {"kind": "exclusive", "products": [a.name, b.name]}
        kid = article(*articles.config_rule_article(rng, rule))
        ctx.exclusive_rules.append(((a.idx, b.idx), kid))
        w.truth("Knowledge__kav", kid, "config_rule", rule)
    visible = articles.draw_visibility(rng, ctx.org)
    partner = {faq: memo for memo, (faq, _version) in articles.PAIRED[ctx.org].items()}
    for faq in articles.faq_articles(ctx.org, text.products(ctx.org)):
        memo = partner.get(faq["title"])
        public = memo is None or visible[memo][1]
        if memo is None:
            kid = article(faq["title"], faq["summary"], faq["body"])
        else:
            kid = paired_article(memo, "faq", faq, public, faq["answer"], [faq["answer"]])
        if public:
            w.truth("Knowledge__kav", kid, "faq", {"question": faq["question"], "answer": faq["answer"]})
    for art in articles.internal_articles(ctx.org):
        if visible[art["title"]][0]:  # published as its public version
            version = articles.public_version(ctx.org, art["title"])
            paired_article(art["title"], "memo", version, True, version["answer"], [])
        else:
            paired_article(art["title"], "memo", art, False, None, art["confidential"])
    w.done("Knowledge__kav")


# --- territories ---------------------------------------------------------------------


def territories(ctx: Ctx) -> None:
    rng = stream(ctx.seed, ctx.org, "territories")
    w, c = ctx.w, ctx.clock
    ctx.states = make_states(rng)
    ctx.state_index = {s.code: i for i, s in enumerate(ctx.states)}
    agents = list(range(len(ctx.sales_agents)))
    rng.shuffle(agents)
    t = work_time(rng, -1100 * DAY)
    terr = []
    for name, codes in TERRITORIES:
        tid = w.new_id("Territory2")
        terr.append((tid, codes))
        w.add("Territory2", {"Id": tid, "Name": name, "Description": ",".join(codes), "CreatedDate": c.dt(t)})
    w.done("Territory2")
    # Every agent gets one territory round-robin; every territory at least two agents when
    # there are enough agents; some agents get a second territory, always one of the agents
    # with the fewest territories so far (no agent collects several).
    members: list[list[int]] = [[] for _ in terr]
    for k, a in enumerate(agents):
        members[k % len(terr)].append(a)
    for ti in range(len(terr)):
        if len(members[ti]) < 2 or rng.random() < 0.35:
            load = {a: sum(a in m for m in members) for a in agents if a not in members[ti]}
            fewest = min(load.values())
            members[ti].append(rng.choice([a for a, n in load.items() if n == fewest]))
    for ti, (tid, codes) in enumerate(terr):
        for a in members[ti]:
            ctx.sales_agents[a].territories.append(ti)
            w.add(
                "UserTerritory2Association",
                {
                    "Id": w.new_id("UserTerritory2Association"),
                    "UserId": ctx.sales_agents[a].user_id,
                    "Territory2Id": tid,
                    "CreatedDate": c.dt(t + rng.randint(1, 40) * DAY),
                },
            )
            for code in codes:
                lst = ctx.state_sales.setdefault(code, [])
                if a not in lst:
                    lst.append(a)
    w.done("UserTerritory2Association")
    _balance_coverage(ctx)


def _balance_coverage(ctx: Ctx) -> None:
    """Pick weights per state's covering agents, inverse to each agent's covered volume, so that
    agents with big or several territories do not own most of the business."""
    volume = [0.0] * len(ctx.sales_agents)
    for s in ctx.states:
        cover = ctx.state_sales.get(s.code, [])
        for a in cover:
            volume[a] += s.weight / len(cover)
    ctx.state_sales_w = {code: [1.0 / volume[a] for a in cover] for code, cover in ctx.state_sales.items()}


def state_owner(ctx: Ctx, rng: random.Random, st: int, loyalty: float) -> int:
    """A sales agent for a customer in state index `st`: with probability `loyalty` one covering
    the state (balanced by volume), else anyone."""
    code = ctx.states[st].code
    if code in ctx.state_sales and rng.random() < loyalty:
        return rng.choices(ctx.state_sales[code], ctx.state_sales_w[code])[0]
    return rng.randrange(len(ctx.sales_agents))


# --- accounts and contacts -----------------------------------------------------------


def accounts(ctx: Ctx, converted: list[LeadPlan]) -> None:
    """Accounts (the converted leads' first, in lead order), then contacts."""
    rng = stream(ctx.seed, ctx.org, "accounts")
    w, c = ctx.w, ctx.clock
    n_total = max(ctx.n("accounts", 10), len(converted) + ctx.n("accounts", 10) // 3)
    state_w = cumulative(s.weight for s in ctx.states)
    industries = text.industries()
    names_used = text.CompanyNames(tries=40)
    emails_used: set[str] = set()
    lo, hi = ctx.size["contacts_per_account"]
    # deferred: (account idx, first, last, t) for the first contact of converted accounts
    con_rows: list[tuple[int, str, str, int]] = []

    for i in range(n_total):
        aid = w.new_id("Account")
        if i < len(converted):
            lead = converted[i]
            st, created, owner = lead.state, lead.converted, lead.owner
            first, last = lead.first, lead.last
            name = lead.company if ctx.b2b and lead.company is not None else f"{first} {last}"  # (B2B leads have one)
            names_used.add(name)
        else:
            lead = None
            st = rng.choices(range(len(ctx.states)), cum_weights=state_w)[0]
            created = work_time(rng, -rng.randint(60, 1100) * DAY)
            owner = state_owner(ctx, rng, st, 0.8)
            if ctx.b2b:
                name = names_used.draw(rng)
            else:
                first, last = text.person_name(rng)
                name = f"{first} {last}"
        row: Row = {
            "Id": aid,
            "Name": name,
            "Phone": phone(rng),
            "ShippingState": ctx.states[st].code,
            "OwnerId": ctx.sales_agents[owner].user_id,
            "CreatedDate": c.dt(created),
        }
        if ctx.b2b:
            ind = rng.choice(industries)
            row.update(
                Industry=ind,
                NumberOfEmployees=round(math.exp(rng.uniform(math.log(15), math.log(25000)))),
                Description=records.account_description(rng, ctx.org, ind),
            )
            email = None
        else:
            email = unique_email(email_local(rng, first, last, consumer=True), personal_domain(rng), emails_used)
            row.update(
                FirstName=first,
                LastName=last,
                PersonEmail=email,
                Description=records.account_description(rng, ctx.org, None),
            )
        w.add("Account", row)
        ctx.acc_id.append(aid)
        ctx.acc_name.append(name)
        ctx.acc_state.append(st)
        ctx.acc_created.append(created)
        ctx.acc_owner.append(owner)
        ctx.acc_email.append(email)
        k = rng.randint(lo, hi)
        ctx.acc_contact0.append(len(con_rows))
        ctx.acc_ncontacts.append(k)
        for j in range(k):
            if j == 0 and (lead is not None or not ctx.b2b):
                con_rows.append((i, first, last, created))
            else:
                f2, l2 = text.person_name(rng)
                con_rows.append((i, f2, l2, created + rng.randint(0, 200) * DAY))
    w.done("Account")
    domains: dict[int, str] = {}
    for ai, first, last, t in con_rows:
        cid = w.new_id("Contact")
        row = {
            "Id": cid,
            "Name": f"{first} {last}",
            "FirstName": first,
            "LastName": last,
            "AccountId": ctx.acc_id[ai],
            "CreatedDate": c.dt(min(t, ctx.clock.cap(t))),
        }
        email = ctx.acc_email[ai]
        if ctx.b2b:
            dom = domains.get(ai)
            if dom is None:
                dom = domains[ai] = company_domain(rng, ctx.acc_name[ai])
            email = unique_email(email_local(rng, first, last, consumer=False), dom, emails_used)
            row.update(Email=email, Phone=phone(rng))
        ctx.con_id.append(cid)
        ctx.con_name.append(f"{first} {last}")
        ctx.con_email.append(email)
        w.add("Contact", row)
    w.done("Contact")


# --- orders --------------------------------------------------------------------------


def orders(ctx: Ctx) -> None:
    """Regular customer orders over the ~2.5 years before as-of, and their items."""
    rng = stream(ctx.seed, ctx.org, "orders")
    w, c = ctx.w, ctx.clock
    span = ORDER_SPAN_DAYS * DAY
    mean = ctx.size["orders_per_account"]
    lo, hi = ctx.size["items_per_order"]
    pw = cumulative(p.weight for p in ctx.products)
    by_product: list[list[OrderItemAt]] = [[] for _ in ctx.products]
    everything: list[tuple[int, str, int, int]] = []
    for ai in range(len(ctx.acc_id)):
        start = max(ctx.acc_created[ai] + DAY, -span)
        active = max(0.0, (0 - start) / span)
        for _ in range(poisson(rng, mean * active * 1.05)):
            t = work_time(rng, rng.uniform(start, -DAY))
            oid = w.new_id("Order")
            w.add(
                "Order",
                {
                    "Id": oid,
                    "AccountId": ctx.acc_id[ai],
                    "EffectiveDate": c.d(t),
                    "OwnerId": ctx.sales_agents[ctx.acc_owner[ai]].user_id,
                    "Pricebook2Id": ctx.standard_pb,
                    "Status": "Draft" if t > -5 * DAY and rng.random() < 0.5 else "Activated",
                    "CreatedDate": c.dt(t),
                },
            )
            k = rng.randint(lo, hi)
            picked: list[int] = []
            while len(picked) < k:
                p = rng.choices(range(len(pw)), cum_weights=pw)[0]
                if p not in picked:
                    picked.append(p)
            for p in picked:
                prod = ctx.products[p]
                qty = rng.randint(1, 20) if ctx.b2b else (1 if rng.random() < 0.8 else 2)
                iid = w.new_id("OrderItem")
                w.add(
                    "OrderItem",
                    {
                        "Id": iid,
                        "OrderId": oid,
                        "PricebookEntryId": prod.pbe_id,
                        "Product2Id": prod.id,
                        "Quantity": float(qty),
                        "UnitPrice": prod.price,
                        "CreatedDate": c.dt(t),
                    },
                )
                by_product[p].append((t, iid, ai))
                everything.append((t, iid, ai, p))
    w.done("Order", "OrderItem")
    for lst in by_product:
        lst.sort()
    everything.sort()
    ctx.items_by_product = by_product
    ctx.items_by_time = everything


def item_before(ctx: Ctx, rng: random.Random, product: int, t: float) -> OrderItemAt | None:
    """A recent order item of `product` bought before `t`, or None."""
    lst = ctx.items_by_product[product]
    k = bisect.bisect_left(lst, (t - DAY,))
    if k == 0:
        return None
    back = min(k, 1 + int(rng.expovariate(1 / 12)))
    return lst[k - back]


__all__ = [
    "HOUR",
    "SALES_PROFILE",
    "SERVICE_PROFILE",
    "accounts",
    "catalog",
    "item_before",
    "knowledge",
    "orders",
    "state_owner",
    "territories",
    "users",
]
