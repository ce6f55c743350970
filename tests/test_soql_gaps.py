"""SOQL gaps found by running CRMArena's tool queries and agent-style queries (issue 15, item 5),
each checked against hand-written SQL on a generated org: the object-name prefix on field
paths, WITH / FOR clauses, toLabel() and FORMAT(), GROUP BY ROLLUP / CUBE with GROUPING(),
exact currency sums, the LIMIT that FIELDS(ALL) needs, and Territory2's child relationship.
"""

from __future__ import annotations

from collections import Counter
from decimal import Decimal

import pytest

from simulator.crm.errors import SalesforceError
from simulator.crm.session import OrgSession


@pytest.fixture(scope="module")
def session(b2b_org):
    with OrgSession(b2b_org) as s:
        yield s


@pytest.fixture(scope="module")
def sql(b2b_org):
    conn = b2b_org.connect()
    conn.row_factory = None

    def run(text: str, params: tuple = ()) -> list[tuple]:
        return conn.execute(text, params).fetchall()

    yield run
    conn.close()


def rows(result: dict, *keys: str) -> list[tuple]:
    """The records of a result as tuples of the given (top-level) keys."""
    return [tuple(r[k] for k in keys) for r in result["records"]]


def error(session, query: str) -> SalesforceError:
    with pytest.raises(SalesforceError) as info:
        session.soql(query)
    return info.value


# --- 1. object-name prefix ------------------------------------------------------------------


def test_object_name_prefix_in_select_and_order_by(session, sql):
    got = session.soql("SELECT Case.Id, Case.Subject FROM Case ORDER BY Case.Id LIMIT 30")
    assert rows(got, "Id", "Subject") == sql('SELECT Id, Subject FROM "Case" ORDER BY Id LIMIT 30')


def test_object_name_prefix_on_a_parent_path_in_where(session, sql):
    """CRMArena's get_purchase_history shape: WHERE OrderItem.Order.AccountId = ..."""
    (account,) = sql('SELECT AccountId FROM "Order" GROUP BY AccountId ORDER BY COUNT(*) DESC LIMIT 1')[0]
    got = session.soql(
        f"SELECT Id, OrderItem.Product2Id FROM OrderItem WHERE OrderItem.Order.AccountId = '{account}' ORDER BY Id"
    )
    expected = sql(
        'SELECT oi.Id, oi.Product2Id FROM OrderItem oi JOIN "Order" o ON o.Id = oi.OrderId '
        "WHERE o.AccountId = ? ORDER BY oi.Id",
        (account,),
    )
    assert expected and rows(got, "Id", "Product2Id") == expected


def test_object_name_prefix_in_group_by(session, sql):
    got = session.soql("SELECT Case.Status, COUNT(Case.Id) n FROM Case GROUP BY Case.Status")
    assert Counter(rows(got, "Status", "n")) == Counter(sql('SELECT Status, COUNT(Id) FROM "Case" GROUP BY Status'))


def test_object_name_prefix_in_subqueries(session, sql):
    (account,) = sql("SELECT AccountId FROM Contact GROUP BY AccountId ORDER BY COUNT(*) DESC LIMIT 1")[0]
    expected = sql("SELECT Id, LastName FROM Contact WHERE AccountId = ? ORDER BY Id", (account,))
    for child in ("Contacts", "Account.Contacts"):
        got = session.soql(
            f"SELECT Account.Id, (SELECT Contact.Id, Contact.LastName FROM {child} "
            f"ORDER BY Contact.Id) FROM Account WHERE Account.Id = '{account}'"
        )
        assert rows(got["records"][0]["Contacts"], "Id", "LastName") == expected
    semi = session.soql(
        "SELECT Id FROM Account WHERE Id IN (SELECT Case.AccountId FROM Case WHERE Case.Priority = 'High') ORDER BY Id"
    )
    assert rows(semi, "Id") == sql(
        "SELECT Id FROM Account WHERE Id IN (SELECT AccountId FROM \"Case\" WHERE Priority = 'High') ORDER BY Id"
    )


def test_a_relationship_named_like_an_object_is_still_a_relationship(session, sql):
    got = session.soql("SELECT Id, Account.Name FROM Contact ORDER BY Id LIMIT 20")
    expected = sql(
        "SELECT c.Id, a.Name FROM Contact c LEFT JOIN Account a ON a.Id = c.AccountId ORDER BY c.Id LIMIT 20"
    )
    assert [(r["Id"], r["Account"] and r["Account"]["Name"]) for r in got["records"]] == expected
    own = session.soql("SELECT Account.Name FROM Account ORDER BY Account.Name LIMIT 5")
    assert rows(own, "Name") == sql("SELECT Name FROM Account ORDER BY Name COLLATE NOCASE LIMIT 5")


# --- 2. WITH and FOR clauses ----------------------------------------------------------------


@pytest.mark.parametrize(
    "soql",
    [
        "SELECT Id FROM Case WHERE Priority = 'High' WITH SECURITY_ENFORCED ORDER BY Id LIMIT 20",
        "SELECT Id FROM Case WHERE Priority = 'High' WITH USER_MODE ORDER BY Id LIMIT 20 FOR VIEW",
        "SELECT Id FROM Case WHERE Priority = 'High' WITH SYSTEM_MODE ORDER BY Id LIMIT 20 OFFSET 0 FOR REFERENCE",
        "SELECT Id FROM Case WHERE Priority = 'High' ORDER BY Id LIMIT 20 FOR UPDATE",
        "SELECT Id FROM Case WHERE Priority = 'High' ORDER BY Id LIMIT 20 FOR VIEW UPDATE VIEWSTAT",
    ],
)
def test_with_and_for_clauses_have_no_effect(session, sql, soql):
    expected = sql("SELECT Id FROM \"Case\" WHERE Priority = 'High' ORDER BY Id LIMIT 20")
    assert expected and rows(session.soql(soql), "Id") == expected


def test_with_comes_before_group_by(session, sql):
    got = session.soql(
        "SELECT Status, COUNT(Id) n FROM Case WHERE Priority = 'High' WITH SECURITY_ENFORCED GROUP BY Status"
    )
    assert Counter(rows(got, "Status", "n")) == Counter(
        sql("SELECT Status, COUNT(Id) FROM \"Case\" WHERE Priority = 'High' GROUP BY Status")
    )


@pytest.mark.parametrize(
    "soql",
    [
        "SELECT Id FROM Case FOR VIEW WHERE Priority = 'High'",
        "SELECT Id FROM Case WITH SECURITY_ENFORCED WHERE Priority = 'High'",
        "SELECT Id FROM Case WITH EVERYTHING",
        "SELECT Id FROM Case FOR LUNCH",
        "SELECT Id FROM Case LIMIT 1 FOR UPDATE FOR VIEW",
    ],
)
def test_misplaced_or_unknown_clauses_are_malformed(session, soql):
    assert error(session, soql).code == "MALFORMED_QUERY"


# --- 3. toLabel() and FORMAT() --------------------------------------------------------------


def test_tolabel_and_format_return_the_stored_value(session, sql):
    got = session.soql(
        "SELECT Id, toLabel(Status), FORMAT(CreatedDate), toLabel(Priority) p FROM Case ORDER BY Id LIMIT 25"
    )
    assert list(got["records"][0])[1:] == ["Id", "Status", "CreatedDate", "p"]
    expected = sql('SELECT Id, Status, CreatedDate, Priority FROM "Case" ORDER BY Id LIMIT 25')
    assert [(i, s, c[:19], p) for i, s, c, p in rows(got, "Id", "Status", "CreatedDate", "p")] == [
        (i, s, c[:19], p) for i, s, c, p in expected
    ]
    amounts = session.soql("SELECT FORMAT(Amount) FROM Opportunity ORDER BY Id LIMIT 10")
    assert rows(amounts, "Amount") == sql("SELECT Amount FROM Opportunity ORDER BY Id LIMIT 10")


def test_tolabel_needs_a_field(session):
    err = error(session, "SELECT toLabel() FROM Case")
    assert err.code == "MALFORMED_QUERY" and "TOLABEL() needs a field" in err.message


def test_tolabel_in_an_aggregate_query(session, sql):
    got = session.soql("SELECT toLabel(Status), COUNT(Id) FROM Case GROUP BY Status")
    assert Counter(rows(got, "Status", "expr0")) == Counter(sql('SELECT Status, COUNT(Id) FROM "Case" GROUP BY Status'))


# --- 4. GROUP BY ROLLUP / CUBE ---------------------------------------------------------------


def _grouping_sets(sql, sets: list[tuple[bool, bool]]) -> Counter:
    """Rows (Status, Priority, GROUPING(Status), GROUPING(Priority), count) of the given sets."""
    out: Counter = Counter()
    for keep_status, keep_priority in sets:
        keys = [k for k, keep in (("Status", keep_status), ("Priority", keep_priority)) if keep]
        group = f" GROUP BY {', '.join(keys)}" if keys else ""
        for row in sql(f'SELECT {", ".join(keys + ["COUNT(Id)"])} FROM "Case"{group}'):
            values = dict(zip(keys, row))
            out[
                (values.get("Status"), values.get("Priority"), int(not keep_status), int(not keep_priority), row[-1])
            ] += 1
    return out


def test_group_by_rollup_one_field(session, sql):
    got = session.soql("SELECT Status, COUNT(Id) cnt FROM Case GROUP BY ROLLUP(Status)")
    expected = sql('SELECT Status, COUNT(Id) FROM "Case" GROUP BY Status') + sql('SELECT NULL, COUNT(Id) FROM "Case"')
    assert Counter(rows(got, "Status", "cnt")) == Counter(expected)
    assert rows(got, "Status", "cnt")[-1] == sql('SELECT NULL, COUNT(Id) FROM "Case"')[0]  # grand total last


def test_group_by_rollup_two_fields_with_grouping(session, sql):
    keys = ("Status", "Priority", "gs", "gp", "cnt")
    got = rows(
        session.soql(
            "SELECT Status, Priority, GROUPING(Status) gs, GROUPING(Priority) gp, COUNT(Id) cnt "
            "FROM Case GROUP BY ROLLUP(Status, Priority)"
        ),
        *keys,
    )
    assert Counter(got) == _grouping_sets(sql, [(True, True), (True, False), (False, False)])
    # as Salesforce lists them: each Status's detail rows, then its subtotal; the grand total last
    subtotals = [i for i, r in enumerate(got) if r[3] == 1 and r[2] == 0]
    for i in subtotals:
        assert got[i - 1][0] == got[i][0] and got[i - 1][3] == 0
    assert got[-1][2:4] == (1, 1)


def test_group_by_cube_with_having_and_order_by_grouping(session, sql):
    keys = ("Status", "Priority", "gs", "gp", "cnt")
    got = rows(
        session.soql(
            "SELECT Status, Priority, GROUPING(Status) gs, GROUPING(Priority) gp, COUNT(Id) cnt "
            "FROM Case GROUP BY CUBE(Status, Priority) HAVING COUNT(Id) > 3 "
            "ORDER BY GROUPING(Status), GROUPING(Priority)"
        ),
        *keys,
    )
    expected = _grouping_sets(sql, [(True, True), (True, False), (False, True), (False, False)])
    assert Counter(got) == Counter({r: n for r, n in expected.items() if r[-1] > 3})
    assert [r[2:4] for r in got] == sorted(r[2:4] for r in got)


def test_rollup_errors(session):
    assert (
        error(session, "SELECT Status, COUNT(Id) FROM Case GROUP BY ROLLUP(Status, Priority, Origin, OwnerId)").code
        == "MALFORMED_QUERY"
    )
    assert (
        error(session, "SELECT Status, GROUPING(Priority) FROM Case GROUP BY ROLLUP(Status)").code == "MALFORMED_QUERY"
    )
    assert (
        "names a field twice"
        in error(session, "SELECT Status, COUNT(Id) FROM Case GROUP BY ROLLUP(Status, Status)").message
    )
    assert "ROLLUP or CUBE" in error(session, "SELECT Status, GROUPING(Status) g FROM Case GROUP BY Status").message


# --- 5. exact sums of currency -----------------------------------------------------------------


@pytest.mark.parametrize(
    "obj, field", [("Opportunity", "Amount"), ("QuoteLineItem", "TotalPrice"), ("OrderItem", "UnitPrice")]
)
def test_sum_and_avg_of_currency_are_exact(session, sql, obj, field):
    values = [Decimal(str(v)) for (v,) in sql(f'SELECT {field} FROM "{obj}" WHERE {field} IS NOT NULL')]
    total = sum(values)
    got = session.soql(f"SELECT SUM({field}) s, AVG({field}) a, COUNT({field}) n FROM {obj}")["records"][0]
    assert repr(got["s"]) == repr(float(total))  # 12773801.01, not 12773801.010000004
    assert got["a"] == float(total / len(values))
    assert got["n"] == len(values) and isinstance(got["n"], int)


def test_grouped_sums_of_currency_and_double_are_exact(session, sql):
    got = session.soql("SELECT QuoteId, SUM(TotalPrice) t, SUM(Quantity) q FROM QuoteLineItem GROUP BY QuoteId")
    exact: dict = {}
    for quote, price, qty in sql("SELECT QuoteId, TotalPrice, Quantity FROM QuoteLineItem"):
        t, q = exact.get(quote, (Decimal(0), Decimal(0)))
        exact[quote] = (t + Decimal(str(price)), q + Decimal(str(qty)))
    assert {r["QuoteId"]: (r["t"], r["q"]) for r in got["records"]} == {
        k: (float(t), float(q)) for k, (t, q) in exact.items()
    }
    ints = session.soql("SELECT SUM(DurationInMinutes) s FROM Event")["records"][0]["s"]
    assert isinstance(ints, int) and ints == sql("SELECT SUM(DurationInMinutes) FROM Event")[0][0]


# --- 6. FIELDS(ALL) and FIELDS(CUSTOM) need LIMIT 200 -----------------------------------------


@pytest.mark.parametrize(
    "soql",
    [
        "SELECT FIELDS(ALL) FROM Case",
        "SELECT FIELDS(ALL) FROM Case LIMIT 201",
        "SELECT Id, FIELDS(CUSTOM) FROM Case",
        "SELECT Id, (SELECT FIELDS(ALL) FROM Cases) FROM Account LIMIT 5",
    ],
)
def test_fields_all_and_custom_need_a_limit_of_at_most_200(session, soql):
    err = error(session, soql)
    assert err.code == "MALFORMED_QUERY" and "LIMIT of at most 200" in err.message


def test_fields_with_a_limit_and_fields_standard_without(session, sql):
    got = session.soql("SELECT FIELDS(ALL) FROM Case ORDER BY Id LIMIT 200")
    assert [r["Id"] for r in got["records"]] == [i for (i,) in sql('SELECT Id FROM "Case" ORDER BY Id LIMIT 200')]
    standard = session.soql("SELECT FIELDS(STANDARD) FROM Territory2")
    assert standard["totalSize"] == sql("SELECT COUNT(*) FROM Territory2")[0][0]


# --- 7. Territory2's child relationship ---------------------------------------------------------


def test_territory2_user_associations(session, sql):
    got = session.soql(
        "SELECT Id, (SELECT UserId FROM UserTerritory2Associations ORDER BY UserId) FROM Territory2 ORDER BY Id"
    )
    expected: dict = {}
    for territory, user in sql("SELECT Territory2Id, UserId FROM UserTerritory2Association ORDER BY UserId"):
        expected.setdefault(territory, []).append(user)
    assert expected
    assert {
        r["Id"]: [u["UserId"] for u in r["UserTerritory2Associations"]["records"]]
        for r in got["records"]
        if r["UserTerritory2Associations"]
    } == expected


def test_numbers_past_salesforce_precision_are_refused_and_sums_never_saturate(b2b_org):
    """A currency value of 16 digits before the point or more is refused as Salesforce refuses it; a sum
    of allowed values past 64 bits of cents is an error, never a silently clipped number."""
    import json

    from simulator.crm.tools import CrmTools

    session = OrgSession(b2b_org)
    tools = CrmTools(session)
    ids = [r["Id"] for r in json.loads(tools.soql("SELECT Id FROM Opportunity ORDER BY Id LIMIT 12"))["records"]]
    for value in ("1e300", "1e16", "-1e16"):
        refused = json.loads(tools.update_record("Opportunity", ids[0], "Amount", value))
        assert refused["error"][0]["errorCode"] == "NUMBER_OUTSIDE_VALID_RANGE", value
    for rid in ids:  # (12 x 9e15: each allowed, the sum in cents past 2**63)
        assert json.loads(tools.update_record("Opportunity", rid, "Amount", "9000000000000000"))["success"]
    quoted = ", ".join(f"'{rid}'" for rid in ids)
    with pytest.raises(SalesforceError) as err:
        session.soql(f"SELECT SUM(Amount) s FROM Opportunity WHERE Id IN ({quoted})")
    assert err.value.code == "NUMBER_OUTSIDE_VALID_RANGE"
    (row,) = session.soql(
        f"SELECT SUM(Amount) s FROM Opportunity WHERE Id IN ({quoted}) AND Id != '{ids[0]}' AND Id != '{ids[1]}'"
    )["records"]
    assert row["s"] == 9e16  # (10 of them fit: exact)
