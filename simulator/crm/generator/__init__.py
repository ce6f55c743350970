"""The seeded, deterministic org generator: `build_org("b2b" | "b2c", path, seed=, scale=)`.

Same org type, seed, scale and as-of date give byte-identical table content (and the same
content hash). Every random draw comes from a `random.Random` stream derived from
(seed, org, stream name); nothing reads the clock or iterates over unordered collections.

Modules: `build` (API, atomic file write), `apart` (a phase run in a forked process beside the
next, merged as one process writes it), `common` (streams, time formatting, the row
writer), `context` (sizes and the compact state passed between families), `latent` (the
latent variables: agent speed and transfer propensity, regional closure speed, conversion
skill, sales-cycle speed, product issue rates, per-quarter drift), `core` (users, catalog,
knowledge, territories, accounts, contacts, orders), `service` (cases, case history,
emails, chats), `sales` (leads, calls, opportunities, activities, quotes, contracts).
Prose comes from `text` (not owned here); the service policies' conditions it writes to are data
in `policy_rules`.

Users: `User.ProfileId` is the readable profile name, 'Service Agent' or 'Sales Agent'.

Labels in the `_truth` table (object, record_id, kind, value as JSON):

=========================  ======================  ============================================
kind                       object                  value
=========================  ======================  ============================================
``true_stage``             Opportunity             the stage its activities and calls show (its
                                                   StageName was deliberately mislabelled)
``misfit_task``            Task                    {"opportunity": Id, "fits_stage": stage}: a
                                                   Not Started task that does not fit the stage
                                                   of its (correctly labelled) opportunity
``bant_unmet``             Lead                    list of unmet BANT factors in the order Budget,
                                                   Authority, Need, Timeline ([] = all met); only
                                                   for leads with a call transcript
``competitors``            VoiceCallTranscript__c  list of competitor names mentioned ([] = none)
``sentiments``             VoiceCallTranscript__c  {subtopic: positive|neutral|negative}
``policy_breach``          Case                    Knowledge__kav Id of the service policy the
                                                   agent breached in the case's emails or chat
                                                   (cases with conversations and no label breach
                                                   none)
``case_issue``             Case                    Issue__c Id a new (Status 'New') case reports;
                                                   its IssueId__c stays empty until triage
``quote_violation``        Quote                   Knowledge__kav Id of the pricing (max
                                                   discount) policy a line violates
``config_violation``       Quote                   Knowledge__kav Id of the configuration rule
                                                   (max quantity / exclusive products) violated
``service_policy``         Knowledge__kav          the policy key (threads.SERVICE_POLICY_KEYS)
``pricing_rule``           Knowledge__kav          {"kind": "max_discount", "family", "max_discount"}
``config_rule``            Knowledge__kav          {"kind": "max_quantity", "product", "max_quantity"}
                                                   or {"kind": "exclusive", "products": [a, b]}
``faq``                    Knowledge__kav          {"question", "answer"}
``internal``               Knowledge__kav          list of confidential values in the body
``injection``              (the record holding     {"object", "field", "goal", "obey", "text"}: an
                           it)                     instruction planted in free text (only with
                                                   ``injections="standard"``; see `injections`)
=========================  ======================  ============================================

Quotes are "checked" (the population of the quote-approval and invalid-config tasks) when
their Status is 'Needs Review' or 'In Review': about 40% violate a pricing policy, 40% a
configuration rule and 20% comply; every other quote complies. A quote violates at most one
rule. Open deals in the Quote and Negotiation stages may carry alternative options (extra
quotes with other quantities and discounts, Description "Quote N, alternative option ...");
a deal whose lines break a configuration rule has only checked quotes, all labelled with
that rule. Many deals stall before closing (60% of those opened in the past year, 20% of older
ones; mostly in Quote and Negotiation); about a third of the open deals carry a stale StageName
(``true_stage``) and about 60% of the others, and of the deals closed in the past year, have
8-20 Not Started tasks of which 4-7 are misfits, written in random order. At scale 1 each
org holds 300+ checked quotes (120+ breaches of each kind), 130+ ``true_stage`` labels and
250+ opportunities with ``misfit_task`` labels. Orders of closed opportunities have EffectiveDate = Contract.StartDate, the same
AccountId and OwnerId = Opportunity.OwnerId, and UnitPrice net of the accepted discount.
"""

from typing import Any

from .version import GENERATOR_VERSION

_FROM_BUILD = ("DEFAULT_AS_OF", "build_org")


def __getattr__(name: str) -> Any:
    """`build_org` and its constants, imported from `build` on first use: importing it loads every
    generator module (~1 s), which a run on a cached org never needs."""
    if name in _FROM_BUILD:
        from . import build

        return getattr(build, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = ["DEFAULT_AS_OF", "GENERATOR_VERSION", "build_org"]
