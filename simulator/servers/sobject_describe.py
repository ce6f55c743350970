"""The REST API's describe bodies built from the org's schema: the sObject list
(`GET sobjects`), one object's basic info (`GET sobjects/X`) and its full describe
(`GET sobjects/X/describe`: fields with Salesforce types, labels, references, picklist values;
child relationships)."""

from __future__ import annotations

import re

from ..crm.schema import Field, Schema, SObject, not_createable, not_updateable, required_on_create

READ_ONLY_OBJECTS = frozenset({"CaseHistory__c"})  # the write tools refuse to edit, create or delete them
_LENGTHS = {
    "id": 18,
    "reference": 18,
    "string": 255,
    "picklist": 255,
    "url": 255,
    "email": 80,
    "phone": 40,
    "textarea": 32768,
}
_SOAP_TYPES = {
    "id": "tns:ID",
    "reference": "tns:ID",
    "boolean": "xsd:boolean",
    "int": "xsd:int",
    "double": "xsd:double",
    "currency": "xsd:double",
    "percent": "xsd:double",
    "date": "xsd:date",
    "datetime": "xsd:dateTime",
}
_PRECISION = {"currency": (18, 2), "double": (18, 2), "percent": (5, 2)}


def release_label(version: str) -> str:
    """'59.0' -> "Winter '24": the release of an API version (three a year, v59.0 in Winter '24)."""
    step = int(float(version)) - 59
    return f"{('Winter', 'Spring', 'Summer')[step % 3]} '{24 + step // 3:02d}"


def label_of(api_name: str) -> str:
    """'OrderItemId__c' -> 'Order Item ID', 'CreatedDate' -> 'Created Date'."""
    words = re.findall(r"[A-Z]+(?![a-z])|[A-Z]?[a-z0-9]+", api_name.removesuffix("__c").replace("_", " "))
    return " ".join("ID" if w == "Id" else w for w in words) or api_name


def _urls(version: str, name: str) -> dict:
    base = f"/services/data/v{version}/sobjects/{name}"
    return {"sobject": base, "describe": f"{base}/describe", "rowTemplate": f"{base}/{{ID}}"}


def object_summary(obj: SObject, version: str) -> dict:
    """An object as `GET sobjects` lists it (and `GET sobjects/X` heads it)."""
    updateable = obj.name not in READ_ONLY_OBJECTS
    return {
        "name": obj.name,
        "label": obj.label,
        "labelPlural": obj.label + "s",
        "keyPrefix": obj.key_prefix,
        "custom": obj.name.endswith(("__c", "__kav")),
        "queryable": True,
        "retrieveable": True,
        "searchable": True,
        "updateable": updateable,
        "createable": updateable,
        "deletable": updateable,
        "undeletable": False,
        "layoutable": False,
        "urls": _urls(version, obj.name),
    }


def sobject_list(schema: Schema, version: str) -> dict:
    return {"encoding": "UTF-8", "maxBatchSize": 200, "sobjects": [object_summary(o, version) for o in schema.objects]}


def _field(obj: SObject, f: Field) -> dict:
    precision, scale = _PRECISION.get(f.type, (0, 0))
    fixed = not_updateable(obj, f)
    writable = obj.name not in READ_ONLY_OBJECTS
    return {
        "name": f.name,
        "type": f.type,
        "label": label_of(f.name),
        "inlineHelpText": f.description or None,
        "length": _LENGTHS.get(f.type, 0),
        "precision": precision,
        "scale": scale,
        "digits": 9 if f.type == "int" else 0,
        "soapType": _SOAP_TYPES.get(f.type, "xsd:string"),
        "nillable": f.type not in ("id", "boolean") and f.name not in required_on_create(obj),
        "updateable": writable and fixed is None,
        "createable": writable and not_createable(obj, f) is None,
        "custom": f.name.endswith("__c"),
        "calculated": fixed in ("formula", "calculated"),
        "autoNumber": fixed == "auto-number",
        "unique": False,
        "externalId": False,
        "idLookup": f.name == "Id",
        "nameField": f.name == "Name",
        "filterable": True,
        "sortable": f.type != "textarea",
        "groupable": f.type not in ("textarea", "double", "currency", "percent"),
        "defaultValue": False if f.type == "boolean" else None,
        "referenceTo": [f.reference_to] if f.reference_to else [],
        "relationshipName": f.relationship_name if f.reference_to else None,
        "restrictedPicklist": bool(f.picklist),
        "picklistValues": [
            {"value": v, "label": v, "active": True, "defaultValue": False, "validFor": None} for v in f.picklist
        ],
    }


def describe(obj: SObject, version: str) -> dict:
    """`GET sobjects/X/describe`: the object's summary, its fields and its child relationships."""
    children = [
        {
            "childSObject": c.child_object,
            "field": c.field,
            "relationshipName": c.name,
            "cascadeDelete": False,
            "restrictedDelete": False,
            "deprecatedAndHidden": False,
        }
        for c in obj.children
    ]
    return {
        **object_summary(obj, version),
        "fields": [_field(obj, f) for f in obj.fields],
        "childRelationships": children,
        "recordTypeInfos": [],
        "supportedScopes": [],
    }
