"""Email addresses and phone numbers laid out the way real CRM data has them.

No address can be rebuilt from a name and a company: the local part takes one of several layouts
(first.last, flast, first_last, last.first, f.last, firstl, a nickname, digits), drawn per person;
a company's mail domain is one of several derivations of its name (whole, shortened, initials,
hyphenated, .com/.net/.io/.co), drawn per company; consumers mostly use personal domains. Phone
numbers follow the North American numbering plan's shapes (area code and exchange 2-9 first, never
an N11 code, never the 555 fiction exchange) and are written in the layouts people type.
"""

from __future__ import annotations

import random
import re

from .common import slug

NICKNAMES = {
    "Abigail": "abby",
    "Alejandro": "alex",
    "Andrea": "andi",
    "Benjamin": "ben",
    "Bradley": "brad",
    "Caroline": "carrie",
    "Christopher": "chris",
    "Daniel": "dan",
    "Daniela": "dani",
    "Emily": "em",
    "Fernando": "nando",
    "Gabriel": "gabe",
    "Isabel": "izzy",
    "Jacob": "jake",
    "Javier": "javi",
    "Jonas": "jo",
    "Julian": "jules",
    "Madeline": "maddie",
    "Michael": "mike",
    "Nathan": "nate",
    "Nikhil": "nik",
    "Rebecca": "becca",
    "Ricardo": "rick",
    "Samir": "sam",
    "Sebastian": "seb",
    "Stefan": "steff",
    "Valentina": "val",
    "Victor": "vic",
    "William": "will",
    "Xavier": "xavi",
    "Zoran": "zoki",
    "Theo": "teddy",
}
WORK_LAYOUTS = (
    "{first}.{last}",
    "{f}{last}",
    "{first}{l}",
    "{first}_{last}",
    "{f}.{last}",
    "{last}.{first}",
    "{first}",
    "{first}{last}",
    "{last}{f}",
    "{nick}.{last}",
)
WORK_WEIGHTS = (30, 22, 6, 6, 8, 5, 6, 7, 4, 6)
CONSUMER_LAYOUTS = (
    "{first}.{last}{n}",
    "{nick}{last}{n}",
    "{f}{last}{n}",
    "{first}_{last}",
    "{first}{n}",
    "{last}.{first}",
    "{nick}_{l}{n}",
    "{first}{last}",
    "{last}{first}{n}",
    "{f}.{last}",
)
CONSUMER_WEIGHTS = (14, 10, 14, 8, 10, 6, 8, 10, 6, 14)
PERSONAL_DOMAINS = (
    "gmail.com",
    "yahoo.com",
    "outlook.com",
    "icloud.com",
    "hotmail.com",
    "aol.com",
    "proton.me",
    "comcast.net",
    "att.net",
    "msn.com",
    "live.com",
    "me.com",
)
PERSONAL_WEIGHTS = (40, 12, 12, 10, 8, 3, 3, 3, 3, 2, 2, 2)
TLDS = ("com", "com", "com", "com", "net", "io", "co", "us")
_GENERIC = {"inc", "llc", "ltd", "co", "corp", "corporation", "group", "the", "and", "of", "company", "plc", "gmbh"}


def _clean(name: str) -> str:
    return re.sub(r"[^a-z]", "", name.lower())


def _number(rng: random.Random) -> str:
    """The digits people add to a personal address: a year, a pair, or one digit; or none."""
    kind = rng.random()
    if kind < 0.3:
        return str(rng.randint(1955, 2006))
    if kind < 0.6:
        return f"{rng.randint(0, 99):02d}"
    return str(rng.randint(1, 9)) if kind < 0.75 else ""


def email_local(rng: random.Random, first: str, last: str, consumer: bool) -> str:
    """The part before the '@' of one person's address, in a layout drawn for them."""
    layouts, weights = (CONSUMER_LAYOUTS, CONSUMER_WEIGHTS) if consumer else (WORK_LAYOUTS, WORK_WEIGHTS)
    fn, ln = _clean(first), _clean(last)
    layout = rng.choices(layouts, weights)[0]
    return layout.format(first=fn, last=ln, f=fn[:1], l=ln[:1], nick=NICKNAMES.get(first, fn), n=_number(rng))


def company_domain(rng: random.Random, company: str) -> str:
    """A mail domain for `company`: its name whole, shortened, as initials or hyphenated, with a TLD."""
    words = [w for w in slug(company).lower().split("-") if w] or ["company"]
    core = [w for w in words if w not in _GENERIC] or words
    options = (
        "".join(core),
        core[0],
        "-".join(core),
        "".join(w[:1] for w in words) + core[0][:4],
        "".join(words),
        core[0] + (core[1][:3] if len(core) > 1 else "hq"),
    )
    stem = rng.choices(options, (30, 25, 10, 10, 15, 10))[0][:24]
    return f"{stem}.{rng.choice(TLDS)}"


def personal_domain(rng: random.Random) -> str:
    return rng.choices(PERSONAL_DOMAINS, PERSONAL_WEIGHTS)[0]


def unique_email(local: str, domain: str, used: set[str]) -> str:
    """local@domain, or local<k>@domain for the smallest k >= 2 that is still free."""
    email, k = f"{local}@{domain}", 2
    while email in used:
        email = f"{local}{k}@{domain}"
        k += 1
    used.add(email)
    return email


def _code(rng: random.Random, area: bool) -> str:
    """A 3-digit area code or exchange: first digit 2-9, never N11 nor 555 (nor, for area codes,
    a second digit 9, which the plan keeps in reserve)."""
    while True:
        code = f"{rng.randint(2, 9)}{rng.randint(0, 8 if area else 9)}{rng.randint(0, 9)}"
        if code[1:] != "11" and code != "555":
            return code


PHONE_LAYOUTS = (
    "({a}) {x}-{n}",
    "{a}-{x}-{n}",
    "{a}.{x}.{n}",
    "+1 {a} {x} {n}",
    "+1 ({a}) {x}-{n}",
    "{a} {x} {n}",
    "1-{a}-{x}-{n}",
)
PHONE_WEIGHTS = (40, 25, 8, 8, 7, 7, 5)


def phone(rng: random.Random, layout: str | None = None) -> str:
    """A North American phone number in `layout`, else in one of the layouts people write."""
    layout = layout or rng.choices(PHONE_LAYOUTS, PHONE_WEIGHTS)[0]
    return layout.format(a=_code(rng, area=True), x=_code(rng, area=False), n=f"{rng.randint(0, 9999):04d}")
