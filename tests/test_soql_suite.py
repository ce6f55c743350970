"""The SOQL feature suite: each supported feature, run through the engine on a generated org,
checked against hand-written SQL on the same file.

Date literal bounds are computed here from the org's as-of date, independently of the
engine's own date code, following Salesforce's reference (LAST_N_DAYS:n includes today;
LAST_N_MONTHS / LAST_N_QUARTERS exclude the current period; weeks start on Sunday).
"""

from __future__ import annotations

from datetime import date, timedelta

import pytest

from simulator.crm.ids import to18
from simulator.crm.session import OrgSession

# --- independent date arithmetic --------------------------------------------------------


def _month_start(d: date, delta: int = 0) -> date:
    m = d.year * 12 + d.month - 1 + delta
    return date(m // 12, m % 12 + 1, 1)


def _quarter_start(d: date, delta: int = 0) -> date:
    return _month_start(date(d.year, 3 * ((d.month - 1) // 3) + 1, 1), 3 * delta)


def date_params(today: date) -> dict[str, str]:
    """Named bounds of every literal the suite uses, as date strings."""
    week = today - timedelta(days=(today.weekday() + 1) % 7)  # Sunday
    bounds = {
        "today": today,
        "tomorrow": today + timedelta(1),
        "yesterday": today - timedelta(1),
        "ld30": today - timedelta(30),
        "ld90": today - timedelta(90),
        "nd30": today + timedelta(31),
        "m0": _month_start(today),
        "m1": _month_start(today, 1),
        "m_1": _month_start(today, -1),
        "m_3": _month_start(today, -3),
        "m_6": _month_start(today, -6),
        "q0": _quarter_start(today),
        "q1": _quarter_start(today, 1),
        "q_1": _quarter_start(today, -1),
        "q_2": _quarter_start(today, -2),
        "q_4": _quarter_start(today, -4),
        "y0": date(today.year, 1, 1),
        "y1": date(today.year + 1, 1, 1),
        "y_1": date(today.year - 1, 1, 1),
        "w0": week,
        "w1": week + timedelta(7),
        "w_1": week - timedelta(7),
    }
    out = {k: v.isoformat() for k, v in bounds.items()}
    out.update({k + "_dt": v.isoformat() + "T00:00:00.000+0000" for k, v in bounds.items()})
    return out


def _in(field: str, start: str, end: str, dt: bool = True) -> str:
    sfx = "_dt" if dt else ""
    return f"({field} >= :{start}{sfx} AND {field} < :{end}{sfx})"


# --- the cases: (id, soql, sql, ordered) -------------------------------------------------

B2B_CASES = [
    # field lists, names, ordering, limits
    (
        "select_basic",
        "SELECT Id, Name FROM Account ORDER BY Id LIMIT 25",
        "SELECT Id, Name FROM Account ORDER BY Id LIMIT 25",
        True,
    ),
    (
        "case_insensitive_names",
        "select id, NAME from account order by ID limit 10",
        "SELECT Id, Name FROM Account ORDER BY Id LIMIT 10",
        True,
    ),
    (
        "offset",
        "SELECT Id FROM Contact ORDER BY Id LIMIT 10 OFFSET 20",
        "SELECT Id FROM Contact ORDER BY Id LIMIT 10 OFFSET 20",
        True,
    ),
    (
        "order_desc",
        "SELECT Id, Amount FROM Opportunity ORDER BY Amount DESC, Id LIMIT 15",
        "SELECT Id, Amount FROM Opportunity ORDER BY Amount DESC, Id LIMIT 15",
        True,
    ),
    (
        "order_two_keys",
        "SELECT Id, StageName FROM Opportunity ORDER BY StageName, Id DESC LIMIT 30",
        "SELECT Id, StageName FROM Opportunity ORDER BY StageName, Id DESC LIMIT 30",
        True,
    ),
    (
        "nulls_last",
        "SELECT Id, ClosedDate FROM Case ORDER BY ClosedDate ASC NULLS LAST, Id LIMIT 40",
        'SELECT Id, ClosedDate FROM "Case" ORDER BY ClosedDate IS NULL, ClosedDate, Id LIMIT 40',
        True,
    ),
    (
        "nulls_first_desc",
        "SELECT Id, ClosedDate FROM Case ORDER BY ClosedDate DESC NULLS FIRST, Id LIMIT 40",
        'SELECT Id, ClosedDate FROM "Case" ORDER BY ClosedDate IS NOT NULL, ClosedDate DESC, Id LIMIT 40',
        True,
    ),
    (
        "nulls_default_asc",
        "SELECT Id, ClosedDate FROM Case ORDER BY ClosedDate, Id LIMIT 40",
        'SELECT Id, ClosedDate FROM "Case" ORDER BY ClosedDate IS NOT NULL, ClosedDate, Id LIMIT 40',
        True,
    ),
    (
        "nulls_default_desc",
        "SELECT Id, ClosedDate FROM Case ORDER BY ClosedDate DESC, Id LIMIT 40",
        'SELECT Id, ClosedDate FROM "Case" ORDER BY ClosedDate IS NULL, ClosedDate DESC, Id LIMIT 40',
        True,
    ),
    # WHERE
    (
        "eq_string",
        "SELECT Id FROM Case WHERE Status = 'Closed'",
        "SELECT Id FROM \"Case\" WHERE Status = 'Closed'",
        False,
    ),
    (
        "neq_includes_null",
        "SELECT Id FROM Case WHERE Status != 'Closed'",
        "SELECT Id FROM \"Case\" WHERE Status != 'Closed' OR Status IS NULL",
        False,
    ),
    (
        "ltgt_operator",
        "SELECT Id FROM Case WHERE Priority <> 'High'",
        "SELECT Id FROM \"Case\" WHERE Priority != 'High' OR Priority IS NULL",
        False,
    ),
    (
        "in_list",
        "SELECT Id FROM Case WHERE Priority IN ('High', 'Medium')",
        "SELECT Id FROM \"Case\" WHERE Priority IN ('High', 'Medium')",
        False,
    ),
    (
        "not_in_list",
        "SELECT Id FROM Case WHERE Origin NOT IN ('Email', 'Web')",
        "SELECT Id FROM \"Case\" WHERE Origin NOT IN ('Email', 'Web') OR Origin IS NULL",
        False,
    ),
    (
        "like_prefix",
        "SELECT Id, Name FROM Account WHERE Name LIKE 'a%'",
        "SELECT Id, Name FROM Account WHERE Name LIKE 'a%'",
        False,
    ),
    (
        "like_contains",
        "SELECT Id FROM Case WHERE Subject LIKE '%not%'",
        "SELECT Id FROM \"Case\" WHERE Subject LIKE '%not%'",
        False,
    ),
    (
        "like_underscore",
        "SELECT Id FROM Product2 WHERE External_ID__c LIKE '%_1%'",
        "SELECT Id FROM Product2 WHERE External_ID__c LIKE '%_1%'",
        False,
    ),
    (
        "and_or_parens",
        "SELECT Id FROM Case WHERE (Priority = 'High' OR Origin = 'Phone') AND Status = 'Closed'",
        "SELECT Id FROM \"Case\" WHERE (Priority = 'High' OR Origin = 'Phone') AND Status = 'Closed'",
        False,
    ),
    (
        "or_nested_and",
        "SELECT Id FROM Case WHERE Priority = 'High' OR (Origin = 'Phone' AND Status = 'New')",
        "SELECT Id FROM \"Case\" WHERE Priority = 'High' OR (Origin = 'Phone' AND Status = 'New')",
        False,
    ),
    (
        "not_expr",
        "SELECT Id FROM Case WHERE NOT (Priority = 'Low')",
        "SELECT Id FROM \"Case\" WHERE NOT (Priority = 'Low') OR Priority IS NULL",
        False,
    ),
    ("eq_null", "SELECT Id FROM Case WHERE ClosedDate = null", 'SELECT Id FROM "Case" WHERE ClosedDate IS NULL', False),
    (
        "neq_null",
        "SELECT Id FROM Case WHERE ClosedDate != NULL",
        'SELECT Id FROM "Case" WHERE ClosedDate IS NOT NULL',
        False,
    ),
    (
        "int_compare",
        "SELECT Id, NumberOfEmployees FROM Account WHERE NumberOfEmployees > 500",
        "SELECT Id, NumberOfEmployees FROM Account WHERE NumberOfEmployees > 500",
        False,
    ),
    (
        "currency_range",
        "SELECT Id FROM Opportunity WHERE Amount >= 10000 AND Amount <= 50000.5",
        "SELECT Id FROM Opportunity WHERE Amount >= 10000 AND Amount <= 50000.5",
        False,
    ),
    (
        "boolean_true",
        "SELECT Id FROM Knowledge__kav WHERE IsVisibleInPkb = true",
        "SELECT Id FROM Knowledge__kav WHERE IsVisibleInPkb = 1",
        False,
    ),
    (
        "boolean_false",
        "SELECT Id, Title FROM Knowledge__kav WHERE IsVisibleInPkb = FALSE",
        "SELECT Id, Title FROM Knowledge__kav WHERE IsVisibleInPkb = 0",
        False,
    ),
    (
        "escaped_quote",
        "SELECT Id FROM Account WHERE Name = 'O\\'Brien & Sons'",
        "SELECT Id FROM Account WHERE Name = 'O''Brien & Sons'",
        False,
    ),
    # parent paths
    (
        "parent_field",
        "SELECT Id, Account.Name FROM Case WHERE AccountId != null ORDER BY Id LIMIT 50",
        'SELECT c.Id, a.Name FROM "Case" c JOIN Account a ON a.Id = c.AccountId ORDER BY c.Id LIMIT 50',
        True,
    ),
    (
        "parent_owner",
        "SELECT Id, Owner.Email FROM Case ORDER BY Id LIMIT 50",
        'SELECT c.Id, u.Email FROM "Case" c LEFT JOIN User u ON u.Id = c.OwnerId ORDER BY c.Id LIMIT 50',
        True,
    ),
    (
        "parent_two_levels",
        "SELECT Id, Account.Owner.Name FROM Case WHERE AccountId != null ORDER BY Id LIMIT 50",
        'SELECT c.Id, u.Name FROM "Case" c JOIN Account a ON a.Id = c.AccountId '
        "JOIN User u ON u.Id = a.OwnerId ORDER BY c.Id LIMIT 50",
        True,
    ),
    (
        "parent_custom_r",
        "SELECT Id, IssueId__r.Name FROM Case WHERE IssueId__c != null ORDER BY Id LIMIT 50",
        'SELECT c.Id, i.Name FROM "Case" c JOIN Issue__c i ON i.Id = c.IssueId__c ORDER BY c.Id LIMIT 50',
        True,
    ),
    (
        "parent_custom_object",
        "SELECT Id, CaseId__r.Subject FROM CaseHistory__c ORDER BY Id LIMIT 50",
        'SELECT h.Id, c.Subject FROM CaseHistory__c h LEFT JOIN "Case" c ON c.Id = h.CaseId__c ORDER BY h.Id LIMIT 50',
        True,
    ),
    (
        "parent_product",
        "SELECT Id, Product2.Name, Quantity FROM OrderItem ORDER BY Id LIMIT 50",
        "SELECT o.Id, p.Name, o.Quantity FROM OrderItem o LEFT JOIN Product2 p ON p.Id = o.Product2Id "
        "ORDER BY o.Id LIMIT 50",
        True,
    ),
    (
        "parent_quote_opp",
        "SELECT Id, Opportunity.StageName FROM Quote ORDER BY Id LIMIT 50",
        "SELECT q.Id, o.StageName FROM Quote q LEFT JOIN Opportunity o ON o.Id = q.OpportunityId "
        "ORDER BY q.Id LIMIT 50",
        True,
    ),
    (
        "order_item_chain",
        "SELECT Id, OrderItemId__r.Product2.Family FROM Case WHERE OrderItemId__c != null ORDER BY Id LIMIT 40",
        'SELECT c.Id, p.Family FROM "Case" c JOIN OrderItem oi ON oi.Id = c.OrderItemId__c '
        "JOIN Product2 p ON p.Id = oi.Product2Id ORDER BY c.Id LIMIT 40",
        True,
    ),
    (
        "where_parent",
        "SELECT Id FROM Case WHERE Account.ShippingState = 'CA'",
        "SELECT c.Id FROM \"Case\" c JOIN Account a ON a.Id = c.AccountId WHERE a.ShippingState = 'CA'",
        False,
    ),
    (
        "order_by_parent",
        "SELECT Id FROM Contact ORDER BY Account.Name, Id LIMIT 30",
        "SELECT c.Id FROM Contact c LEFT JOIN Account a ON a.Id = c.AccountId "
        "ORDER BY a.Name IS NOT NULL, a.Name COLLATE NOCASE, c.Id LIMIT 30",
        True,
    ),
    # semi-joins and anti-joins
    (
        "semi_join",
        "SELECT Id FROM Account WHERE Id IN (SELECT AccountId FROM Case WHERE Priority = 'High')",
        "SELECT Id FROM Account WHERE Id IN (SELECT AccountId FROM \"Case\" WHERE Priority = 'High')",
        False,
    ),
    (
        "anti_join",
        "SELECT Id FROM Account WHERE Id NOT IN (SELECT AccountId FROM Opportunity)",
        "SELECT Id FROM Account WHERE Id NOT IN (SELECT AccountId FROM Opportunity WHERE AccountId IS NOT NULL)",
        False,
    ),
    (
        "semi_join_history",
        "SELECT Id FROM Case WHERE Id IN (SELECT CaseId__c FROM CaseHistory__c "
        "WHERE Field__c = 'Owner Assignment' AND OldValue__c != null)",
        'SELECT Id FROM "Case" WHERE Id IN (SELECT CaseId__c FROM CaseHistory__c '
        "WHERE Field__c = 'Owner Assignment' AND OldValue__c IS NOT NULL)",
        False,
    ),
    # aggregates
    (
        "count_group",
        "SELECT Status, COUNT(Id) FROM Case GROUP BY Status",
        'SELECT Status, COUNT(Id) FROM "Case" GROUP BY Status',
        False,
    ),
    (
        "count_field_alias",
        "SELECT Priority, COUNT(Id) total FROM Case GROUP BY Priority ORDER BY Priority",
        'SELECT Priority, COUNT(Id) FROM "Case" GROUP BY Priority ORDER BY Priority IS NOT NULL, Priority',
        True,
    ),
    ("count_null_field", "SELECT COUNT(ClosedDate) FROM Case", 'SELECT COUNT(ClosedDate) FROM "Case"', False),
    (
        "count_distinct",
        "SELECT COUNT_DISTINCT(AccountId) FROM Case",
        'SELECT COUNT(DISTINCT AccountId) FROM "Case"',
        False,
    ),
    (
        "sum_group",
        "SELECT StageName, SUM(Amount) FROM Opportunity GROUP BY StageName",
        "SELECT StageName, SUM(Amount) FROM Opportunity GROUP BY StageName",
        False,
    ),
    (
        "avg_min_max",
        "SELECT AVG(Amount), MIN(Amount), MAX(Amount) FROM Opportunity",
        "SELECT AVG(Amount), MIN(Amount), MAX(Amount) FROM Opportunity",
        False,
    ),
    (
        "min_date",
        "SELECT MIN(CreatedDate), MAX(CreatedDate) FROM Lead",
        "SELECT MIN(CreatedDate), MAX(CreatedDate) FROM Lead",
        False,
    ),
    (
        "having",
        "SELECT OwnerId, COUNT(Id) FROM Case GROUP BY OwnerId HAVING COUNT(Id) > 5",
        'SELECT OwnerId, COUNT(Id) FROM "Case" GROUP BY OwnerId HAVING COUNT(Id) > 5',
        False,
    ),
    (
        "order_by_aggregate",
        "SELECT OwnerId, COUNT(Id) FROM Case GROUP BY OwnerId ORDER BY COUNT(Id) DESC, OwnerId LIMIT 5",
        'SELECT OwnerId, COUNT(Id) FROM "Case" GROUP BY OwnerId ORDER BY COUNT(Id) DESC, OwnerId LIMIT 5',
        True,
    ),
    (
        "group_by_parent",
        "SELECT Owner.Name, COUNT(Id) FROM Lead GROUP BY Owner.Name",
        "SELECT u.Name, COUNT(l.Id) FROM Lead l LEFT JOIN User u ON u.Id = l.OwnerId GROUP BY u.Name",
        False,
    ),
    (
        "group_two_fields",
        "SELECT StageName, OwnerId, COUNT(Id) FROM Opportunity GROUP BY StageName, OwnerId",
        "SELECT StageName, OwnerId, COUNT(Id) FROM Opportunity GROUP BY StageName, OwnerId",
        False,
    ),
    (
        "sum_expression_group",
        "SELECT Product2Id, SUM(Quantity) FROM OrderItem GROUP BY Product2Id",
        "SELECT Product2Id, SUM(Quantity) FROM OrderItem GROUP BY Product2Id",
        False,
    ),
    (
        "avg_where_group",
        "SELECT IssueId__c, COUNT(Id) FROM Case WHERE Status = 'Closed' GROUP BY IssueId__c",
        "SELECT IssueId__c, COUNT(Id) FROM \"Case\" WHERE Status = 'Closed' GROUP BY IssueId__c",
        False,
    ),
    # date functions
    (
        "calendar_month_group",
        "SELECT CALENDAR_MONTH(CreatedDate), COUNT(Id) FROM Case GROUP BY CALENDAR_MONTH(CreatedDate)",
        'SELECT CAST(substr(CreatedDate, 6, 2) AS INTEGER), COUNT(Id) FROM "Case" GROUP BY 1',
        False,
    ),
    (
        "calendar_year_group",
        "SELECT CALENDAR_YEAR(CreatedDate), COUNT(Id) FROM Opportunity GROUP BY CALENDAR_YEAR(CreatedDate)",
        "SELECT CAST(substr(CreatedDate, 1, 4) AS INTEGER), COUNT(Id) FROM Opportunity GROUP BY 1",
        False,
    ),
    (
        "calendar_quarter_where",
        "SELECT Id FROM Case WHERE CALENDAR_QUARTER(CreatedDate) = 2",
        'SELECT Id FROM "Case" WHERE (CAST(substr(CreatedDate, 6, 2) AS INTEGER) + 2) / 3 = 2',
        False,
    ),
    (
        "calendar_year_where",
        "SELECT Id FROM Lead WHERE CALENDAR_YEAR(CreatedDate) = 2025",
        "SELECT Id FROM Lead WHERE substr(CreatedDate, 1, 4) = '2025'",
        False,
    ),
    (
        "day_only_group",
        "SELECT DAY_ONLY(CreatedDate), COUNT(Id) FROM Case WHERE CreatedDate = LAST_N_DAYS:30 "
        "GROUP BY DAY_ONLY(CreatedDate)",
        'SELECT substr(CreatedDate, 1, 10), COUNT(Id) FROM "Case" WHERE '
        + _in("CreatedDate", "ld30", "tomorrow")
        + " GROUP BY 1",
        False,
    ),
    (
        "date_date_month",
        "SELECT CALENDAR_MONTH(CloseDate), COUNT(Id) FROM Opportunity GROUP BY CALENDAR_MONTH(CloseDate)",
        "SELECT CAST(substr(CloseDate, 6, 2) AS INTEGER), COUNT(Id) FROM Opportunity GROUP BY 1",
        False,
    ),
    # date literals (datetime fields)
    (
        "today",
        "SELECT Id FROM Case WHERE CreatedDate = TODAY",
        'SELECT Id FROM "Case" WHERE ' + _in("CreatedDate", "today", "tomorrow"),
        False,
    ),
    (
        "yesterday",
        "SELECT Id FROM Case WHERE CreatedDate = YESTERDAY",
        'SELECT Id FROM "Case" WHERE ' + _in("CreatedDate", "yesterday", "today"),
        False,
    ),
    (
        "last_n_days",
        "SELECT Id FROM Case WHERE CreatedDate = LAST_N_DAYS:30",
        'SELECT Id FROM "Case" WHERE ' + _in("CreatedDate", "ld30", "tomorrow"),
        False,
    ),
    (
        "last_90_days",
        "SELECT Id FROM Lead WHERE CreatedDate = LAST_90_DAYS",
        "SELECT Id FROM Lead WHERE " + _in("CreatedDate", "ld90", "tomorrow"),
        False,
    ),
    (
        "this_week",
        "SELECT Id FROM Case WHERE CreatedDate = THIS_WEEK",
        'SELECT Id FROM "Case" WHERE ' + _in("CreatedDate", "w0", "w1"),
        False,
    ),
    (
        "last_week",
        "SELECT Id FROM Case WHERE CreatedDate = LAST_WEEK",
        'SELECT Id FROM "Case" WHERE ' + _in("CreatedDate", "w_1", "w0"),
        False,
    ),
    (
        "this_month",
        "SELECT Id FROM Case WHERE CreatedDate = THIS_MONTH",
        'SELECT Id FROM "Case" WHERE ' + _in("CreatedDate", "m0", "m1"),
        False,
    ),
    (
        "last_month",
        "SELECT Id FROM Case WHERE CreatedDate = LAST_MONTH",
        'SELECT Id FROM "Case" WHERE ' + _in("CreatedDate", "m_1", "m0"),
        False,
    ),
    (
        "last_n_months",
        "SELECT Id FROM Case WHERE CreatedDate = LAST_N_MONTHS:3",
        'SELECT Id FROM "Case" WHERE ' + _in("CreatedDate", "m_3", "m0"),
        False,
    ),
    (
        "this_quarter",
        "SELECT Id FROM Case WHERE CreatedDate = THIS_QUARTER",
        'SELECT Id FROM "Case" WHERE ' + _in("CreatedDate", "q0", "q1"),
        False,
    ),
    (
        "last_quarter",
        "SELECT Id FROM Case WHERE CreatedDate = LAST_QUARTER",
        'SELECT Id FROM "Case" WHERE ' + _in("CreatedDate", "q_1", "q0"),
        False,
    ),
    (
        "last_n_quarters",
        "SELECT Id FROM Case WHERE CreatedDate = LAST_N_QUARTERS:4",
        'SELECT Id FROM "Case" WHERE ' + _in("CreatedDate", "q_4", "q0"),
        False,
    ),
    (
        "this_year",
        "SELECT Id FROM Lead WHERE CreatedDate = THIS_YEAR",
        "SELECT Id FROM Lead WHERE " + _in("CreatedDate", "y0", "y1"),
        False,
    ),
    (
        "last_year",
        "SELECT Id FROM Lead WHERE CreatedDate = LAST_YEAR",
        "SELECT Id FROM Lead WHERE " + _in("CreatedDate", "y_1", "y0"),
        False,
    ),
    (
        "before_literal",
        "SELECT Id FROM Case WHERE CreatedDate < LAST_N_QUARTERS:2",
        'SELECT Id FROM "Case" WHERE CreatedDate < :q_2_dt',
        False,
    ),
    (
        "after_literal",
        "SELECT Id FROM Case WHERE CreatedDate > LAST_MONTH",
        'SELECT Id FROM "Case" WHERE CreatedDate >= :m0_dt',
        False,
    ),
    (
        "ge_literal",
        "SELECT Id FROM Case WHERE CreatedDate >= LAST_QUARTER",
        'SELECT Id FROM "Case" WHERE CreatedDate >= :q_1_dt',
        False,
    ),
    (
        "le_literal",
        "SELECT Id FROM Case WHERE CreatedDate <= LAST_QUARTER",
        'SELECT Id FROM "Case" WHERE CreatedDate < :q0_dt',
        False,
    ),
    # date literals (date fields) and explicit dates
    (
        "date_field_next_n_days",
        "SELECT Id FROM Opportunity WHERE CloseDate = NEXT_N_DAYS:30",
        "SELECT Id FROM Opportunity WHERE " + _in("CloseDate", "tomorrow", "nd30", dt=False),
        False,
    ),
    (
        "date_field_before_today",
        "SELECT Id FROM Task WHERE ActivityDate < TODAY",
        "SELECT Id FROM Task WHERE ActivityDate < :today",
        False,
    ),
    (
        "date_field_after_today",
        "SELECT Id FROM Opportunity WHERE CloseDate > TODAY",
        "SELECT Id FROM Opportunity WHERE CloseDate >= :tomorrow",
        False,
    ),
    (
        "date_field_this_quarter",
        "SELECT Id FROM Contract WHERE CompanySignedDate = THIS_QUARTER",
        "SELECT Id FROM Contract WHERE " + _in("CompanySignedDate", "q0", "q1", dt=False),
        False,
    ),
    (
        "date_value",
        "SELECT Id FROM Opportunity WHERE CloseDate >= 2026-01-01 AND CloseDate < 2026-04-01",
        "SELECT Id FROM Opportunity WHERE CloseDate >= '2026-01-01' AND CloseDate < '2026-04-01'",
        False,
    ),
    (
        "datetime_value_z",
        "SELECT Id FROM Case WHERE CreatedDate >= 2026-01-01T00:00:00Z",
        "SELECT Id FROM \"Case\" WHERE CreatedDate >= '2026-01-01T00:00:00.000+0000'",
        False,
    ),
    (
        "datetime_value_offset",
        "SELECT Id FROM Case WHERE CreatedDate < 2026-01-01T00:00:00-05:00",
        "SELECT Id FROM \"Case\" WHERE CreatedDate < '2026-01-01T05:00:00.000+0000'",
        False,
    ),
    (
        "datetime_value_millis",
        "SELECT Id FROM Case WHERE CreatedDate > 2025-06-30T12:30:00.000+0000",
        "SELECT Id FROM \"Case\" WHERE CreatedDate > '2025-06-30T12:30:00.000+0000'",
        False,
    ),
    # realistic task-style queries
    (
        "handle_time_window",
        "SELECT OwnerId, COUNT(Id) FROM Case WHERE ClosedDate != null AND "
        "CreatedDate = LAST_N_QUARTERS:4 GROUP BY OwnerId",
        'SELECT OwnerId, COUNT(Id) FROM "Case" WHERE ClosedDate IS NOT NULL AND '
        + _in("CreatedDate", "q_4", "q0")
        + " GROUP BY OwnerId",
        False,
    ),
    (
        "state_cases",
        "SELECT Account.ShippingState, COUNT(Id) FROM Case WHERE Status = 'Closed' GROUP BY Account.ShippingState",
        'SELECT a.ShippingState, COUNT(c.Id) FROM "Case" c LEFT JOIN Account a ON a.Id = c.AccountId '
        "WHERE c.Status = 'Closed' GROUP BY a.ShippingState",
        False,
    ),
    (
        "converted_leads",
        "SELECT OwnerId, COUNT(Id) FROM Lead WHERE IsConverted = true "
        "AND ConvertedDate = LAST_N_MONTHS:6 GROUP BY OwnerId",
        "SELECT OwnerId, COUNT(Id) FROM Lead WHERE IsConverted = 1 AND "
        + _in("ConvertedDate", "m_6", "m0", dt=False)
        + " GROUP BY OwnerId",
        False,
    ),
    (
        "quote_discounts",
        "SELECT QuoteId, MAX(Discount) FROM QuoteLineItem WHERE Discount > 10 GROUP BY QuoteId",
        "SELECT QuoteId, MAX(Discount) FROM QuoteLineItem WHERE Discount > 10 GROUP BY QuoteId",
        False,
    ),
    (
        "territory_like",
        "SELECT Id, Name FROM Territory2 WHERE Description LIKE '%CA%'",
        "SELECT Id, Name FROM Territory2 WHERE Description LIKE '%CA%'",
        False,
    ),
    (
        "tasks_not_started",
        "SELECT Id, Subject, What.StageName FROM Task WHERE Status = 'Not Started' "
        "AND WhatId != null ORDER BY Id LIMIT 60",
        "SELECT t.Id, t.Subject, o.StageName FROM Task t JOIN Opportunity o ON o.Id = t.WhatId "
        "WHERE t.Status = 'Not Started' ORDER BY t.Id LIMIT 60",
        True,
    ),
]

B2C_CASES = [
    (
        "b2c_person_accounts",
        "SELECT Id, FirstName, LastName, PersonEmail FROM Account ORDER BY Id LIMIT 20",
        "SELECT Id, FirstName, LastName, PersonEmail FROM Account ORDER BY Id LIMIT 20",
        True,
    ),
    (
        "b2c_contract_signed",
        "SELECT Id FROM Contract WHERE CustomerSignedDate = LAST_N_MONTHS:6",
        "SELECT Id FROM Contract WHERE " + _in("CustomerSignedDate", "m_6", "m0", dt=False),
        False,
    ),
    (
        "b2c_lead_state",
        "SELECT State, COUNT(Id) FROM Lead GROUP BY State",
        "SELECT State, COUNT(Id) FROM Lead GROUP BY State",
        False,
    ),
]


# --- the comparison ----------------------------------------------------------------------


def _norm(value):
    if isinstance(value, bool):
        return int(value)
    if isinstance(value, float):
        return round(value, 4)
    return value


def _values(record: dict) -> list:
    out = []
    for key, value in record.items():
        if key == "attributes":
            continue
        if isinstance(value, dict):
            out += _values(value)
        else:
            out.append(_norm(value))
    return out


def _check(org, soql: str, sql: str, ordered: bool) -> None:
    conn = org.connect()
    conn.row_factory = None
    expected = [tuple(_norm(v) for v in row) for row in conn.execute(sql, date_params(org.meta.as_of)).fetchall()]
    conn.close()
    with OrgSession(org) as session:
        result = session.soql(soql)
    got = [tuple(_values(r)) for r in result["records"]]
    assert result["totalSize"] == len(got) and result["done"] is True
    if not ordered:
        got, expected = sorted(got, key=repr), sorted(expected, key=repr)
    assert got == expected


@pytest.mark.parametrize("soql,sql,ordered", [c[1:] for c in B2B_CASES], ids=[c[0] for c in B2B_CASES])
def test_b2b_soql_matches_sql(b2b_org, soql, sql, ordered):
    _check(b2b_org, soql, sql, ordered)


@pytest.mark.parametrize("soql,sql,ordered", [c[1:] for c in B2C_CASES], ids=[c[0] for c in B2C_CASES])
def test_b2c_soql_matches_sql(b2c_org, soql, sql, ordered):
    _check(b2c_org, soql, sql, ordered)


def test_suite_is_not_vacuous(b2b_org):
    """Most suite queries must return rows on the test org, or the comparisons prove little."""
    conn = b2b_org.connect()
    params = date_params(b2b_org.meta.as_of)
    non_empty = sum(bool(conn.execute(c[2], params).fetchall()) for c in B2B_CASES)
    conn.close()
    assert non_empty >= 0.8 * len(B2B_CASES)


def test_count_without_field(b2b_org):
    with OrgSession(b2b_org) as session:
        result = session.soql("SELECT COUNT() FROM Case WHERE Status = 'Closed'")
    conn = b2b_org.connect()
    (expected,) = conn.execute("SELECT COUNT(*) FROM \"Case\" WHERE Status = 'Closed'").fetchone()
    assert result["totalSize"] == expected and result["records"] == []


def test_fifteen_character_id(b2b_org):
    conn = b2b_org.connect()
    (case_id,) = conn.execute('SELECT Id FROM "Case" ORDER BY Id LIMIT 1').fetchone()
    with OrgSession(b2b_org) as session:
        result = session.soql(f"SELECT Id FROM Case WHERE Id = '{case_id[:15]}'")
    assert to18(case_id[:15]) == case_id
    assert [r["Id"] for r in result["records"]] == [case_id]


def test_child_subqueries_match_sql(b2b_org):
    soql = (
        "SELECT Id, (SELECT Id FROM Contacts), (SELECT Id FROM Cases WHERE Status = 'Closed') "
        "FROM Account ORDER BY Id LIMIT 60"
    )
    with OrgSession(b2b_org) as session:
        records = session.soql(soql)["records"]
    conn = b2b_org.connect()
    for rec in records:
        for rel, sql in (
            ("Contacts", "SELECT Id FROM Contact WHERE AccountId = ?"),
            ("Cases", "SELECT Id FROM \"Case\" WHERE AccountId = ? AND Status = 'Closed'"),
        ):
            expected = sorted(r[0] for r in conn.execute(sql, (rec["Id"],)))
            child = rec[rel]
            got = [] if child is None else sorted(r["Id"] for r in child["records"])
            assert got == expected
            assert child is None or (child["totalSize"] == len(got) and child["done"] is True)
    assert any(rec["Contacts"] for rec in records)


def test_child_subquery_limit_and_order(b2b_org):
    soql = "SELECT Id, (SELECT Id, Subject FROM Tasks ORDER BY Id DESC LIMIT 2) FROM Opportunity ORDER BY Id LIMIT 40"
    with OrgSession(b2b_org) as session:
        records = session.soql(soql)["records"]
    conn = b2b_org.connect()
    for rec in records:
        expected = [
            r[0] for r in conn.execute("SELECT Id FROM Task WHERE WhatId = ? ORDER BY Id DESC LIMIT 2", (rec["Id"],))
        ]
        got = [] if rec["Tasks"] is None else [r["Id"] for r in rec["Tasks"]["records"]]
        assert got == expected


def test_result_shape(b2b_org):
    with OrgSession(b2b_org) as session:
        rec = session.soql("SELECT Id, Subject, Account.Name FROM Case LIMIT 1")["records"][0]
        agg = session.soql("SELECT Status, COUNT(Id), MAX(CreatedDate) latest FROM Case GROUP BY Status")
    assert rec["attributes"] == {"type": "Case", "url": f"/services/data/v62.0/sobjects/Case/{rec['Id']}"}
    assert list(rec)[1:] == ["Id", "Subject", "Account"]
    assert rec["Account"] is None or rec["Account"]["attributes"]["type"] == "Account"
    first = agg["records"][0]
    assert first["attributes"] == {"type": "AggregateResult"}
    assert list(first)[1:] == ["Status", "expr0", "latest"]
