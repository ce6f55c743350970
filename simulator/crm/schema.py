"""The CRM schema: the 27 Salesforce objects, their fields and relationships, per org type.

This module is the contract between the generator (which writes one SQLite table per
object, one column per field), the SOQL/SOSL engine (which resolves names against it)
and the agents (which are shown `describe` text built from it). It imports nothing heavy.
"""

from __future__ import annotations

from dataclasses import dataclass
from dataclasses import field as dc_field
from functools import cache

from .errors import SalesforceError

ORG_TYPES = ("b2b", "b2c")

# Field types, named as Salesforce's describe() names them, and their SQLite storage.
SQL_TYPES = {
    "id": "TEXT",
    "reference": "TEXT",
    "string": "TEXT",
    "textarea": "TEXT",
    "email": "TEXT",
    "phone": "TEXT",
    "picklist": "TEXT",
    "url": "TEXT",
    "boolean": "INTEGER",
    "int": "INTEGER",
    "double": "REAL",
    "currency": "REAL",
    "percent": "REAL",
    "date": "TEXT",
    "datetime": "TEXT",
}
NUMERIC_TYPES = frozenset({"int", "double", "currency", "percent"})
TEXT_TYPES = frozenset({"string", "textarea", "email", "phone", "picklist", "url"})


@dataclass(frozen=True)
class Field:
    """One field of an object; `name` is its API name and its SQLite column name."""

    name: str
    type: str
    description: str = ""
    reference_to: str | None = None  # target object of a lookup
    relationship_name: str | None = None  # parent path name: AccountId -> Account, X__c -> X__r
    picklist: tuple[str, ...] = ()

    @property
    def sql_type(self) -> str:
        return SQL_TYPES[self.type]


@dataclass(frozen=True)
class ChildRelationship:
    """A child relationship usable in a subquery: `SELECT (SELECT Id FROM Contacts) FROM Account`."""

    name: str  # e.g. Contacts
    child_object: str  # e.g. Contact
    field: str  # the lookup field on the child, e.g. AccountId


@dataclass(frozen=True)
class SObject:
    """One object: a SQLite table named by the API name."""

    name: str
    key_prefix: str
    label: str
    description: str
    fields: tuple[Field, ...]
    children: tuple[ChildRelationship, ...] = ()
    _by_lower: dict[str, Field] = dc_field(default_factory=dict, compare=False, repr=False)

    def __post_init__(self) -> None:
        self._by_lower.update({f.name.lower(): f for f in self.fields})

    def field(self, name: str) -> Field | None:
        """The field named `name`, case-insensitively, or None."""
        return self._by_lower.get(name.lower())

    def parent_field(self, relationship: str) -> Field | None:
        """The lookup field whose relationship name is `relationship` (case-insensitive)."""
        rel = relationship.lower()
        for f in self.fields:
            if f.relationship_name and f.relationship_name.lower() == rel:
                return f
        return None

    def child(self, name: str) -> ChildRelationship | None:
        """The child relationship named `name`, case-insensitively, or None."""
        low = name.lower()
        return next((c for c in self.children if c.name.lower() == low), None)

    def fields_of_type(self, *types: str) -> list[Field]:
        return [f for f in self.fields if f.type in types]


@dataclass(frozen=True)
class Schema:
    """All objects of one org type."""

    org: str
    objects: tuple[SObject, ...]
    _by_lower: dict[str, SObject] = dc_field(default_factory=dict, compare=False, repr=False)

    def __post_init__(self) -> None:
        self._by_lower.update({o.name.lower(): o for o in self.objects})

    def get(self, name: str) -> SObject | None:
        """The object named `name`, case-insensitively, or None."""
        return self._by_lower.get(name.lower())

    def require(self, name: str) -> SObject:
        """The object named `name`, case-insensitively; SalesforceError INVALID_TYPE when the org has none."""
        obj = self.get(name)
        if obj is None:
            raise SalesforceError("INVALID_TYPE", f"sObject type '{name}' is not supported.")
        return obj

    @property
    def names(self) -> list[str]:
        return [o.name for o in self.objects]


# --- what an update may not set ----------------------------------------------------

# Fields Salesforce sets itself, never through an update (its describe: updateable false), by kind:
# system, formula (PricebookEntry.Name is the product's), calculated (QuoteLineItem.TotalPrice is
# Quantity x UnitPrice x (1 - Discount/100)), derived, auto-number, action-only (set by converting
# a lead or publishing an article) and create-only (a line item's parent, product and price book
# entry). Compound names (Name beside FirstName and LastName) are found by `not_updateable`.
_NOT_UPDATEABLE = {
    **dict.fromkeys([("*", "Id"), ("*", "CreatedDate"), ("Case", "ClosedDate")], "system"),
    ("PricebookEntry", "Name"): "formula",
    ("QuoteLineItem", "TotalPrice"): "calculated",
    ("OpportunityLineItem", "Name"): "derived",
    ("LiveChatTranscript", "Name"): "auto-number",
    **dict.fromkeys(
        [
            ("Lead", "IsConverted"),
            ("Lead", "ConvertedDate"),
            ("Lead", "ConvertedAccountId"),
            ("Lead", "ConvertedContactId"),
            ("Knowledge__kav", "PublishStatus"),
        ],
        "action-only",
    ),
    **dict.fromkeys(
        [
            ("OrderItem", "OrderId"),
            ("QuoteLineItem", "QuoteId"),
            ("OpportunityLineItem", "OpportunityId"),
            ("QuoteLineItem", "OpportunityLineItemId"),
            ("PricebookEntry", "Pricebook2Id"),
            ("PricebookEntry", "Product2Id"),
        ]
        + [
            (item, field)
            for item in ("OrderItem", "QuoteLineItem", "OpportunityLineItem")
            for field in ("Product2Id", "PricebookEntryId")
        ],
        "create-only",
    ),
}


def not_updateable(obj: SObject, field: Field) -> str | None:
    """Why no update may set `field` of `obj` (its kind: "system", "compound", "formula",
    "calculated", "derived", "auto-number", "action-only", "create-only"), or None if one may."""
    if field.name == "Name" and obj.field("FirstName") and obj.field("LastName"):
        return "compound"
    return _NOT_UPDATEABLE.get(("*", field.name)) or _NOT_UPDATEABLE.get((obj.name, field.name))


def not_createable(obj: SObject, field: Field) -> str | None:
    """Why no create may set `field` of `obj` (as `not_updateable`, less "create-only"), or None."""
    why = not_updateable(obj, field)
    return None if why == "create-only" else why


def required_on_create(obj: SObject) -> tuple[str, ...]:
    """The fields a create must set: the name field the user writes (a compound name's LastName)."""
    name = obj.field("Name")
    if name is None:
        return ()
    kind = not_updateable(obj, name)
    return ("LastName",) if kind == "compound" else () if kind else ("Name",)


# --- field helpers -------------------------------------------------------------------


def _f(name: str, type_: str, desc: str = "", picklist: tuple[str, ...] = ()) -> Field:
    return Field(name, type_, desc, picklist=picklist)


def _ref(name: str, target: str, desc: str = "") -> Field:
    rel = name[:-3] + "__r" if name.endswith("__c") else (name[:-2] if name.endswith("Id") else name)
    return Field(name, "reference", desc or f"Lookup to {target}.", reference_to=target, relationship_name=rel)


ID = _f("Id", "id", "Unique 18-character record Id.")
NAME = _f("Name", "string", "Record name.")
CREATED = _f("CreatedDate", "datetime", "When the record was created.")


def _owner(desc: str = "The User who owns the record.") -> Field:
    return Field("OwnerId", "reference", desc, reference_to="User", relationship_name="Owner")


CASE_STATUS = ("New", "Working", "Escalated", "Waiting on Customer", "Closed")
PRIORITY = ("Low", "Medium", "High")
CASE_ORIGIN = ("Email", "Phone", "Web", "Chat")
STAGES = ("Qualification", "Discovery", "Quote", "Negotiation", "Closed")
QUOTE_STATUS = ("Draft", "Needs Review", "In Review", "Approved", "Rejected", "Presented", "Accepted", "Denied")
CONTRACT_STATUS = ("Draft", "In Approval Process", "Activated")
TASK_STATUS = ("Not Started", "In Progress", "Completed", "Waiting on someone else", "Deferred")
TASK_PRIORITY = ("High", "Normal", "Low")
LEAD_STATUS = ("Open - Not Contacted", "Working - Contacted", "Closed - Converted", "Closed - Not Converted")
ORDER_STATUS = ("Draft", "Activated")
CASE_HISTORY_FIELDS = ("Case Creation", "Owner Assignment", "Case Closed")


def _objects(org: str) -> list[SObject]:
    b2b = org == "b2b"
    account_fields = [
        ID,
        NAME,
        _f("Description", "textarea", "About the account."),
        _f("Phone", "phone", "Main phone number."),
        _f("ShippingState", "string", "Two-letter US state code of the shipping address."),
        _owner("The account owner (a sales agent)."),
        CREATED,
    ]
    if b2b:
        account_fields[3:3] = [
            _f("Industry", "picklist", "Industry of the company."),
            _f("NumberOfEmployees", "int", "Head count."),
        ]
    else:
        account_fields[2:2] = [
            _f("FirstName", "string", "Person account first name."),
            _f("LastName", "string", "Person account last name."),
            _f("PersonEmail", "email", "Person account email address."),
        ]
    contact_fields = [ID, NAME, _f("FirstName", "string"), _f("LastName", "string")]
    if b2b:
        contact_fields += [_f("Email", "email", "Email address."), _f("Phone", "phone", "Phone number.")]
    contact_fields += [_ref("AccountId", "Account", "The account the contact belongs to."), CREATED]
    lead_fields = [ID, NAME, _f("FirstName", "string"), _f("LastName", "string")]
    if b2b:
        lead_fields += [_f("Company", "string", "The lead's company."), _f("Title", "string", "Job title.")]
    lead_fields += [
        _f("Email", "email"),
        _f("Phone", "phone"),
        _f("State", "string", "Two-letter US state code of the lead's address."),
        _f("Status", "picklist", "Lead status.", LEAD_STATUS),
        _owner("The sales agent who owns the lead."),
        CREATED,
        _f("IsConverted", "boolean", "Whether the lead was converted."),
        _f("ConvertedDate", "date", "Date the lead was converted, if it was."),
        _ref("ConvertedAccountId", "Account", "Account created on conversion."),
        _ref("ConvertedContactId", "Contact", "Contact created on conversion."),
    ]
    contract_fields = [
        ID,
        _ref("AccountId", "Account"),
        _f("CustomerSignedDate", "date", "Date the customer signed."),
        _f("StartDate", "date", "Contract start date."),
        _f("ContractTerm", "int", "Term in months."),
        _f("Description", "textarea"),
        _f("Status", "picklist", "Contract status.", CONTRACT_STATUS),
        CREATED,
    ]
    if b2b:
        contract_fields.insert(2, _f("CompanySignedDate", "date", "Date the company signed."))

    return [
        SObject(
            "User",
            "005",
            "User",
            "Employees: service and sales agents.",
            (
                ID,
                NAME,
                _f("FirstName", "string"),
                _f("LastName", "string"),
                _f("Email", "email"),
                _f("Phone", "phone"),
                _f("Username", "string"),
                _f("Alias", "string"),
                _f("ProfileId", "string", "Profile: service agent or sales agent."),
                _f("TimeZoneSidKey", "string"),
                _f("LocaleSidKey", "string"),
                _f("EmailEncodingKey", "string"),
                _f("LanguageLocaleKey", "string"),
                CREATED,
            ),
        ),
        SObject(
            "Account",
            "001",
            "Account",
            "Customer companies." if b2b else "Customers (person accounts).",
            tuple(account_fields),
            (
                ChildRelationship("Contacts", "Contact", "AccountId"),
                ChildRelationship("Cases", "Case", "AccountId"),
                ChildRelationship("Opportunities", "Opportunity", "AccountId"),
                ChildRelationship("Orders", "Order", "AccountId"),
                ChildRelationship("Contracts", "Contract", "AccountId"),
                ChildRelationship("Quotes", "Quote", "AccountId"),
            ),
        ),
        SObject(
            "Contact",
            "003",
            "Contact",
            "People at customer accounts.",
            tuple(contact_fields),
            (ChildRelationship("Cases", "Case", "ContactId"),),
        ),
        SObject(
            "Case",
            "500",
            "Case",
            "Customer service cases.",
            (
                ID,
                _f("Subject", "string"),
                _f("Description", "textarea"),
                _f("Status", "picklist", "Case status.", CASE_STATUS),
                _f("Priority", "picklist", "Case priority.", PRIORITY),
                _f("Origin", "picklist", "Channel the case came in through.", CASE_ORIGIN),
                _owner("The service agent currently assigned to the case."),
                _ref("AccountId", "Account"),
                _ref("ContactId", "Contact"),
                CREATED,
                _f("ClosedDate", "datetime", "When the case was closed (null while open)."),
                _ref("IssueId__c", "Issue__c", "The issue reported in the case."),
                _ref("OrderItemId__c", "OrderItem", "The order item (purchased product) the case is about."),
            ),
            (
                ChildRelationship("EmailMessages", "EmailMessage", "ParentId"),
                ChildRelationship("CaseHistories__r", "CaseHistory__c", "CaseId__c"),
                ChildRelationship("LiveChatTranscripts", "LiveChatTranscript", "CaseId"),
            ),
        ),
        SObject(
            "CaseHistory__c",
            "a02",
            "Case History",
            "Case events: creation, owner assignments (transfers) and closure.",
            (
                ID,
                _ref("CaseId__c", "Case"),
                CREATED,
                _f("Field__c", "picklist", "The event recorded.", CASE_HISTORY_FIELDS),
                _f("OldValue__c", "string", "Previous owner (User Id) for Owner Assignment; null on first assignment."),
                _f("NewValue__c", "string", "New owner (User Id) for Owner Assignment."),
            ),
        ),
        SObject(
            "Issue__c",
            "a03",
            "Issue",
            "Types of product issues customers report.",
            (ID, NAME, _f("IssueDescription__c", "textarea", "What the issue is."), CREATED),
            (ChildRelationship("Cases__r", "Case", "IssueId__c"),),
        ),
        SObject(
            "Knowledge__kav",
            "ka0",
            "Knowledge Article",
            "Knowledge articles: policies, FAQs and internal-only guidance.",
            (
                ID,
                _f("Title", "string"),
                _f("Summary", "textarea"),
                _f("FAQ_Answer__c", "textarea", "Article body."),
                _f("UrlName", "string"),
                _f("PublishStatus", "picklist", "", ("Online", "Draft", "Archived")),
                _f("Language", "string"),
                _f("IsVisibleInPkb", "boolean", "True for public articles; false means internal only."),
                CREATED,
            ),
        ),
        SObject(
            "EmailMessage",
            "02s",
            "Email Message",
            "Emails exchanged on cases.",
            (
                ID,
                _ref("ParentId", "Case", "The case the email belongs to."),
                Field("RelatedToId", "reference", "The account the email relates to.", "Account", "RelatedTo"),
                _f("Subject", "string"),
                _f("TextBody", "textarea"),
                _f("FromAddress", "email"),
                _f("ToAddress", "email"),
                _f("ToIds", "string", "Recipient record Ids."),
                _f("MessageDate", "datetime"),
                CREATED,
            ),
        ),
        SObject(
            "LiveChatTranscript",
            "570",
            "Live Chat Transcript",
            "Chat sessions on cases.",
            (
                ID,
                NAME,
                _ref("CaseId", "Case"),
                _ref("AccountId", "Account"),
                _ref("ContactId", "Contact"),
                _owner("The agent who handled the chat."),
                _f("Body", "textarea", "The chat transcript."),
                _f("EndTime", "datetime"),
                _f("LiveChatVisitorId", "string"),
                CREATED,
            ),
        ),
        SObject(
            "VoiceCallTranscript__c",
            "a04",
            "Voice Call Transcript",
            "Sales call transcripts with leads and on opportunities.",
            (
                ID,
                NAME,
                _ref("LeadId__c", "Lead"),
                _ref("OpportunityId__c", "Opportunity"),
                _f("TranscriptBody__c", "textarea", "The call transcript."),
                CREATED,
                _f("EndTime__c", "datetime"),
            ),
        ),
        SObject(
            "Product2",
            "01t",
            "Product",
            "Products sold.",
            (
                ID,
                NAME,
                _f("Description", "textarea"),
                _f("Family", "picklist", "Product family."),
                _f("IsActive", "boolean"),
                _f("External_ID__c", "string", "SKU."),
                CREATED,
            ),
            (ChildRelationship("PricebookEntries", "PricebookEntry", "Product2Id"),),
        ),
        SObject(
            "ProductCategory",
            "0ZG",
            "Product Category",
            "Catalog categories.",
            (ID, NAME, _f("CatalogId", "string"), CREATED),
        ),
        SObject(
            "ProductCategoryProduct",
            "0ZH",
            "Product Category Product",
            "Which product is in which category.",
            (ID, _ref("ProductCategoryId", "ProductCategory"), _ref("ProductId", "Product2"), CREATED),
        ),
        SObject(
            "Pricebook2",
            "01s",
            "Price Book",
            "Price books.",
            (
                ID,
                NAME,
                _f("Description", "textarea"),
                _f("IsActive", "boolean"),
                _f("ValidFrom", "datetime"),
                _f("ValidTo", "datetime"),
                CREATED,
            ),
            (ChildRelationship("PricebookEntries", "PricebookEntry", "Pricebook2Id"),),
        ),
        SObject(
            "PricebookEntry",
            "01u",
            "Price Book Entry",
            "List price of a product in a price book.",
            (
                ID,
                NAME,
                _ref("Pricebook2Id", "Pricebook2"),
                _ref("Product2Id", "Product2"),
                _f("UnitPrice", "currency"),
                _f("IsActive", "boolean"),
                CREATED,
            ),
        ),
        SObject(
            "Order",
            "801",
            "Order",
            "Customer orders.",
            (
                ID,
                _ref("AccountId", "Account"),
                _ref("ContractId", "Contract", "The contract the order fulfils (orders from closed deals)."),
                _f("EffectiveDate", "date"),
                _owner("The sales agent who owns the order."),
                _ref("Pricebook2Id", "Pricebook2"),
                _f("Status", "picklist", "", ORDER_STATUS),
                CREATED,
            ),
            (ChildRelationship("OrderItems", "OrderItem", "OrderId"),),
        ),
        SObject(
            "OrderItem",
            "802",
            "Order Product",
            "Line items of orders.",
            (
                ID,
                _ref("OrderId", "Order"),
                _ref("PricebookEntryId", "PricebookEntry"),
                _ref("Product2Id", "Product2"),
                _f("Quantity", "double"),
                _f("UnitPrice", "currency"),
                CREATED,
            ),
            (ChildRelationship("Cases__r", "Case", "OrderItemId__c"),),
        ),
        SObject(
            "Opportunity",
            "006",
            "Opportunity",
            "Sales opportunities.",
            (
                ID,
                NAME,
                _ref("AccountId", "Account"),
                _ref("ContactId", "Contact"),
                _ref("ContractID__c", "Contract", "The contract the opportunity resulted in."),
                _f("Amount", "currency"),
                _f("CloseDate", "date"),
                CREATED,
                _f("Description", "textarea"),
                _owner("The sales agent who owns the opportunity."),
                _f("Probability", "percent"),
                _f("StageName", "picklist", "Sales stage.", STAGES),
            ),
            (
                ChildRelationship("OpportunityLineItems", "OpportunityLineItem", "OpportunityId"),
                ChildRelationship("Tasks", "Task", "WhatId"),
                ChildRelationship("Events", "Event", "WhatId"),
                ChildRelationship("Quotes", "Quote", "OpportunityId"),
                ChildRelationship("VoiceCallTranscripts__r", "VoiceCallTranscript__c", "OpportunityId__c"),
            ),
        ),
        SObject(
            "OpportunityLineItem",
            "00k",
            "Opportunity Product",
            "Products on opportunities.",
            (
                ID,
                NAME,
                _ref("OpportunityId", "Opportunity"),
                _ref("PricebookEntryId", "PricebookEntry"),
                _ref("Product2Id", "Product2"),
                _f("Quantity", "double"),
                _f("TotalPrice", "currency"),
                CREATED,
            ),
        ),
        SObject(
            "Quote",
            "0Q0",
            "Quote",
            "Quotes on opportunities.",
            (
                ID,
                NAME,
                _ref("AccountId", "Account"),
                _ref("ContactId", "Contact"),
                _ref("OpportunityId", "Opportunity"),
                CREATED,
                _f("ExpirationDate", "date"),
                _f("Description", "textarea"),
                _f("Status", "picklist", "Quote status.", QUOTE_STATUS),
                _owner("The sales agent who owns the quote."),
            ),
            (ChildRelationship("QuoteLineItems", "QuoteLineItem", "QuoteId"),),
        ),
        SObject(
            "QuoteLineItem",
            "0QL",
            "Quote Line Item",
            "Quote lines: TotalPrice = Quantity x UnitPrice x (1 - Discount/100).",
            (
                ID,
                _ref("QuoteId", "Quote"),
                _ref("OpportunityLineItemId", "OpportunityLineItem"),
                _ref("PricebookEntryId", "PricebookEntry"),
                _ref("Product2Id", "Product2"),
                _f("Quantity", "double"),
                _f("UnitPrice", "currency"),
                _f("Discount", "percent", "Discount in percent."),
                _f("TotalPrice", "currency"),
                CREATED,
            ),
        ),
        SObject(
            "Contract",
            "800",
            "Contract",
            "Signed customer contracts.",
            tuple(contract_fields),
            (ChildRelationship("Orders", "Order", "ContractId"),),
        ),
        SObject(
            "Task",
            "00T",
            "Task",
            "Sales activities (to-dos) on opportunities.",
            (
                ID,
                _f("Subject", "string"),
                _f("Description", "textarea"),
                _f("Status", "picklist", "", TASK_STATUS),
                _f("Priority", "picklist", "", TASK_PRIORITY),
                _f("ActivityDate", "date", "Due date."),
                _owner(),
                Field("WhatId", "reference", "The opportunity the task is about.", "Opportunity", "What"),
                Field("WhoId", "reference", "The contact the task is with.", "Contact", "Who"),
                CREATED,
            ),
        ),
        SObject(
            "Event",
            "00U",
            "Event",
            "Meetings and calls on opportunities.",
            (
                ID,
                _f("Subject", "string"),
                _f("Description", "textarea"),
                _f("StartDateTime", "datetime"),
                _f("DurationInMinutes", "int"),
                _f("IsAllDayEvent", "boolean"),
                _f("Location", "string"),
                _owner(),
                Field("WhatId", "reference", "The opportunity the event is about.", "Opportunity", "What"),
                CREATED,
            ),
        ),
        SObject(
            "Territory2",
            "0MI",
            "Territory",
            "Sales territories.",
            (ID, NAME, _f("Description", "textarea", "Comma-separated two-letter state codes covered."), CREATED),
            (ChildRelationship("UserTerritory2Associations", "UserTerritory2Association", "Territory2Id"),),
        ),
        SObject(
            "UserTerritory2Association",
            "0R0",
            "User Territory Association",
            "Which sales agent covers which territory.",
            (ID, _ref("UserId", "User"), _ref("Territory2Id", "Territory2"), CREATED),
        ),
        SObject(
            "Lead",
            "00Q",
            "Lead",
            "Sales leads.",
            tuple(lead_fields),
            (ChildRelationship("VoiceCallTranscripts__r", "VoiceCallTranscript__c", "LeadId__c"),),
        ),
    ]


@cache
def schema_for(org: str) -> Schema:
    """The schema of org type `org` ('b2b' or 'b2c')."""
    if org not in ORG_TYPES:
        raise ValueError(f"unknown org type {org!r}; expected one of {', '.join(ORG_TYPES)}")
    return Schema(org, tuple(_objects(org)))


# Fields SOSL searches, by scope (IN NAME/EMAIL/PHONE/ALL FIELDS).
def search_fields(obj: SObject, scope: str = "ALL") -> list[Field]:
    """The text fields of `obj` that a SOSL search in `scope` looks at."""
    scope = scope.upper()
    if scope == "NAME":
        names = {"name", "subject", "title"}
        return [f for f in obj.fields if f.name.lower() in names]
    if scope == "EMAIL":
        return obj.fields_of_type("email")
    if scope == "PHONE":
        return obj.fields_of_type("phone")
    return obj.fields_of_type("string", "textarea", "email", "phone", "url")
