#!/usr/bin/env python3
"""The Python oracle for tests/json_schema/json_schema_python_diff_test.ts.

Usage: /usr/bin/python3 tests/json_schema/_jsonschema_oracle.py < cases.jsonl > verdicts.jsonl

Each input line is {"schema": S, "instance": I} or {"schema": S, "instance": I, "fixes": [NAME...]}.
Each output line is `true` or `false` (Draft202012Validator(S).is_valid(I)), or {"error": "..."}
when S fails Draft202012Validator.check_schema or validation raises.

The verdicts come from Debian's python3-jsonschema (4.10.3) as it is. Only when a line names
`fixes` are some keyword functions swapped for ones that follow the 2020-12 text, one per known
bug of that release (and one for a choice of Assay's), so that the test can tell which explains a
disagreement (re-running the case with only the offending part changed). One patch is always on: the message of an
unevaluatedItems error no longer sorts the items (sorting a dict and a float raised TypeError
instead of giving the verdict); it changes no verdict. The fixes are:

  enum               enum compares with jsonschema._utils.equal (which keeps booleans and numbers
                     apart at any depth), not with Python's `in` (where [True] == [1]).
                     Validation 6.1.2 and core 4.2.2.
  uniqueItems        compares every pair with `equal` instead of only the neighbours after a sort,
                     which misses duplicates when Python's ordering ties 1 with True (or 0 with
                     False) inside arrays. Validation 6.4.3 and core 4.2.2.
  evaluatedBySchemaValues
                     when collecting the properties evaluated by a passing subschema,
                     additionalProperties (and a nested unevaluatedProperties) given as a schema
                     evaluate the keys they apply to; 4.10.3 reads such a schema as if it were a
                     `properties` map. Core 10.3.2.3 and 11.3.
  evaluatedThroughDynamicRef
                     evaluated properties and items are also collected through $dynamicRef, as
                     they are through $ref. Core 8.2.3.2, 11.2 and 11.3.
  integralDivisor    multipleOf reads a divisor that is an integral float (1e2, 100.0) as the int
                     it equals, as Assay must (a JS number keeps no spelling): not a bug of the
                     oracle but Assay's choice, so that the test can tell that choice apart.

Three more swap RefResolver methods for ones that read a JSON-pointer fragment as RFC 6901 (and
section 6, its URI fragment form) has it; with them an unresolvable pointer raises
RefResolutionError, which comes out as {"error": "RefResolutionError: ..."}:

  pointerTrailingEmptyTokens
                     RefResolver.resolve no longer strips trailing slashes off the fragment
                     (4.10.3 does urljoin(...).rstrip("/") on the whole URL), so "#/$defs/" names
                     the key "" of $defs, not $defs, and "#/$defs/a//" names $defs/a/""/"". The
                     part before "#" is still stripped as before. RFC 6901 sections 3 and 4.
  pointerLeadingSlash
                     RefResolver.resolve_fragment reads a fragment that starts with "/" as a
                     pointer: 4.10.3 strips all its leading slashes (fragment.lstrip("/")) and
                     tries the rest as an $anchor first, so "#//x" named /x and "#/pos" the anchor
                     "pos". RFC 6901 sections 3, 4 and 6; core 9.2.1 (plain-name fragments are
                     anchors, "/"-led ones JSON pointers).
  pointerIndexTokens
                     resolve_fragment takes a token as an array index only when it is 0 or digits
                     without a leading zero; 4.10.3 calls int() on it, which reads 01, +1, -0,
                     0_1 and " 1" (and -1 as the last item). RFC 6901 section 4.
"""

import json
import re
import sys
from collections.abc import Sequence
from urllib.parse import unquote, urldefrag, urljoin

from jsonschema import Draft202012Validator, validators
from jsonschema import _utils, _validators
from jsonschema.exceptions import RefResolutionError, ValidationError

# --------------------------------------------------------------------------- error messages

# 4.10.3 builds the message of an unevaluatedItems error with sorted(items), which raises TypeError
# for items that Python cannot order (a dict and a float), so the verdict "invalid" never comes
# out. This replacement changes the message only (it runs after the keyword has failed) and is
# always on.
_sorted_extras_msg = _utils.extras_msg


def _extras_msg(extras):
    try:
        return _sorted_extras_msg(extras)
    except TypeError:
        return ", ".join(repr(extra) for extra in extras), "was" if len(extras) == 1 else "were"


_validators.extras_msg = _extras_msg

# --------------------------------------------------------------------------- fixed keywords


def fixed_enum(validator, enums, instance, schema):
    if not any(_utils.equal(instance, each) for each in enums):
        yield ValidationError(f"{instance!r} is not one of {enums!r}")


def fixed_unique_items(validator, ui, instance, schema):
    if not ui or not validator.is_type(instance, "array"):
        return
    for i in range(len(instance)):
        for j in range(i + 1, len(instance)):
            if _utils.equal(instance[i], instance[j]):
                yield ValidationError(f"{instance!r} has non-unique elements")
                return


def integral_divisor_multiple_of(validator, dB, instance, schema):
    if isinstance(dB, float) and dB.is_integer():
        dB = int(dB)
    yield from _validators.multipleOf(validator, dB, instance, schema)


def _dynamic_target(validator, dynamic_ref):
    """The schema that $dynamicRef resolves to, as 4.10.3's dynamicRef keyword finds it."""
    _, fragment = urldefrag(dynamic_ref)
    resolver = validator.resolver
    for url in resolver._scopes_stack:
        with resolver.resolving(urljoin(url, dynamic_ref)) as subschema:
            if "$dynamicAnchor" in subschema and fragment == subschema["$dynamicAnchor"]:
                return resolver.resolve(urljoin(url, dynamic_ref))
    return resolver.resolve(dynamic_ref)


def make_find_keys(schema_values, dynamic):
    """find_evaluated_property_keys_by_schema with the named bugs fixed."""

    def find_keys(validator, instance, schema):
        if validator.is_type(schema, "boolean"):
            return []
        keys = []
        refs = [("$ref", lambda: validator.resolver.resolve(schema["$ref"]))]
        if dynamic:
            refs.append(("$dynamicRef", lambda: _dynamic_target(validator, schema["$dynamicRef"])))
        for keyword, resolve in refs:
            if keyword in schema:
                scope, resolved = resolve()
                validator.resolver.push_scope(scope)
                try:
                    keys += find_keys(validator, instance, resolved)
                finally:
                    validator.resolver.pop_scope()
        if "properties" in schema:
            for prop, sub in schema["properties"].items():
                if prop in instance and validator.evolve(schema=sub).is_valid(instance[prop]):
                    keys.append(prop)
        for keyword in ["additionalProperties", "unevaluatedProperties"]:
            if keyword not in schema:
                continue
            value = schema[keyword]
            if schema_values:
                if keyword == "additionalProperties":
                    candidates = list(_utils.find_additional_properties(instance, schema))
                else:
                    candidates = list(instance)
                for prop in candidates:
                    if validator.evolve(schema=value).is_valid(instance[prop]):
                        keys.append(prop)
            elif validator.is_type(value, "boolean"):
                for prop, v in instance.items():
                    if validator.evolve(schema=value).is_valid({prop: v}):
                        keys.append(prop)
            elif validator.is_type(value, "object"):
                for prop, sub in value.items():
                    if prop in instance and validator.evolve(schema=sub).is_valid(instance[prop]):
                        keys.append(prop)
        if "patternProperties" in schema:
            for prop, v in instance.items():
                for pattern in schema["patternProperties"]:
                    if re.search(pattern, prop) and validator.evolve(
                        schema=schema["patternProperties"],
                    ).is_valid({prop: v}):
                        keys.append(prop)
        if "dependentSchemas" in schema:
            for prop, sub in schema["dependentSchemas"].items():
                if prop in instance:
                    keys += find_keys(validator, instance, sub)
        for keyword in ["allOf", "oneOf", "anyOf"]:
            for sub in schema.get(keyword, []):
                if not list(validator.descend(instance, sub)):
                    keys += find_keys(validator, instance, sub)
        if "if" in schema:
            if validator.evolve(schema=schema["if"]).is_valid(instance):
                keys += find_keys(validator, instance, schema["if"])
                if "then" in schema:
                    keys += find_keys(validator, instance, schema["then"])
            elif "else" in schema:
                keys += find_keys(validator, instance, schema["else"])
        return keys

    return find_keys


def make_find_indexes(dynamic):
    """find_evaluated_item_indexes_by_schema, also following $dynamicRef when `dynamic`."""

    def find_indexes(validator, instance, schema):
        if validator.is_type(schema, "boolean"):
            return []
        indexes = []
        if dynamic and "$dynamicRef" in schema and "items" not in schema:
            scope, resolved = _dynamic_target(validator, schema["$dynamicRef"])
            validator.resolver.push_scope(scope)
            try:
                indexes += find_indexes(validator, instance, resolved)
            finally:
                validator.resolver.pop_scope()
        # The rest as 4.10.3 does it, recursing through this function.
        if "items" in schema:
            return list(range(len(instance)))
        if "$ref" in schema:
            scope, resolved = validator.resolver.resolve(schema["$ref"])
            validator.resolver.push_scope(scope)
            try:
                indexes += find_indexes(validator, instance, resolved)
            finally:
                validator.resolver.pop_scope()
        if "prefixItems" in schema:
            indexes += list(range(len(schema["prefixItems"])))
        if "if" in schema:
            if validator.evolve(schema=schema["if"]).is_valid(instance):
                indexes += find_indexes(validator, instance, schema["if"])
                if "then" in schema:
                    indexes += find_indexes(validator, instance, schema["then"])
            elif "else" in schema:
                indexes += find_indexes(validator, instance, schema["else"])
        for keyword in ["contains", "unevaluatedItems"]:
            if keyword in schema:
                for k, v in enumerate(instance):
                    if validator.evolve(schema=schema[keyword]).is_valid(v):
                        indexes.append(k)
        for keyword in ["allOf", "oneOf", "anyOf"]:
            for sub in schema.get(keyword, []):
                if not list(validator.descend(instance, sub)):
                    indexes += find_indexes(validator, instance, sub)
        return indexes

    return find_indexes


def make_unevaluated(find_keys, find_indexes):
    def unevaluated_properties(validator, uneval, instance, schema):
        if not validator.is_type(instance, "object"):
            return
        evaluated = find_keys(validator, instance, schema)
        bad = [
            prop
            for prop in instance
            if prop not in evaluated and list(validator.descend(instance[prop], uneval, path=prop))
        ]
        if bad:
            yield ValidationError(f"Unevaluated properties are not allowed ({bad!r})")

    def unevaluated_items(validator, uneval, instance, schema):
        if not validator.is_type(instance, "array"):
            return
        evaluated = find_indexes(validator, instance, schema)
        bad = [
            i
            for i, item in enumerate(instance)
            if i not in evaluated and list(validator.descend(item, uneval, path=i))
        ]
        if bad:
            yield ValidationError(f"Unevaluated items are not allowed ({bad!r})")

    return unevaluated_properties, unevaluated_items


# --------------------------------------------------------------------------- fixed pointers

_CANONICAL_INDEX = re.compile(r"0|[1-9][0-9]*")


def resolver_class(trailing, leading, index):
    """RefResolver with the named pointer bugs fixed; each other line as 4.10.3 has it."""

    class Resolver(validators.RefResolver):
        def resolve(self, ref):
            url = self._urljoin_cache(self.resolution_scope, ref)
            if trailing:
                base, hash_, fragment = url.partition("#")
                url = base.rstrip("/") + hash_ + fragment
            else:
                url = url.rstrip("/")
            match = self._find_in_subschemas(url)
            if match is not None:
                return match
            return url, self._remote_cache(url)

        def resolve_fragment(self, document, fragment):
            if leading and fragment.startswith("/"):
                parts = unquote(fragment[1:]).split("/")
            else:
                fragment = fragment.lstrip("/")
                if not fragment:
                    return document
                if document is self.referrer:
                    find = self._find_in_referrer
                else:

                    def find(key):
                        yield from validators._search_schema(
                            document, validators._match_keyword(key),
                        )

                for keyword in ["$anchor", "$dynamicAnchor"]:
                    for subschema in find(keyword):
                        if fragment == subschema[keyword]:
                            return subschema
                for keyword in ["id", "$id"]:
                    for subschema in find(keyword):
                        if "#" + fragment == subschema[keyword]:
                            return subschema
                parts = unquote(fragment).split("/") if fragment else []
            for part in parts:
                part = part.replace("~1", "/").replace("~0", "~")
                if isinstance(document, Sequence):
                    if index:
                        if _CANONICAL_INDEX.fullmatch(part):
                            part = int(part)
                    else:
                        try:
                            part = int(part)
                        except ValueError:
                            pass
                try:
                    document = document[part]
                except (TypeError, LookupError):
                    raise RefResolutionError(f"Unresolvable JSON pointer: {fragment!r}")
            return document

    return Resolver


POINTER_FIXES = ("pointerTrailingEmptyTokens", "pointerLeadingSlash", "pointerIndexTokens")
FIXES = {
    "enum", "uniqueItems", "evaluatedBySchemaValues", "evaluatedThroughDynamicRef",
    "integralDivisor", *POINTER_FIXES,
}
_classes = {}


def validator_class(fixes):
    key = tuple(sorted(fixes))
    if key in _classes:
        return _classes[key]
    unknown = set(key) - FIXES
    if unknown:
        raise ValueError(f"unknown fixes {sorted(unknown)}")
    swapped = {}
    if "enum" in key:
        swapped["enum"] = fixed_enum
    if "uniqueItems" in key:
        swapped["uniqueItems"] = fixed_unique_items
    if "integralDivisor" in key:
        swapped["multipleOf"] = integral_divisor_multiple_of
    schema_values = "evaluatedBySchemaValues" in key
    dynamic = "evaluatedThroughDynamicRef" in key
    if schema_values or dynamic:
        props, items = make_unevaluated(
            make_find_keys(schema_values, dynamic), make_find_indexes(dynamic),
        )
        swapped["unevaluatedProperties"] = props
        swapped["unevaluatedItems"] = items
    cls = validators.extend(Draft202012Validator, swapped) if swapped else Draft202012Validator
    pointer = [name in key for name in POINTER_FIXES]
    if any(pointer):
        resolver = resolver_class(*pointer)
        base = cls

        def cls(schema):
            return base(schema, resolver=resolver.from_schema(schema, id_of=base.ID_OF))

    _classes[key] = cls
    return cls


# --------------------------------------------------------------------------- main loop

_checked = {}
_validators_cache = {}


def verdict(line):
    case = json.loads(line)
    schema = case["schema"]
    fixes = case.get("fixes") or []
    schema_text = json.dumps(schema, sort_keys=True)
    if schema_text not in _checked:
        try:
            Draft202012Validator.check_schema(schema)
            _checked[schema_text] = None
        except Exception as e:  # noqa: BLE001 - reported as data
            _checked[schema_text] = f"schema: {type(e).__name__}: {str(e)[:300]}"
    if _checked[schema_text] is not None:
        return {"error": _checked[schema_text]}
    key = (schema_text, tuple(sorted(fixes)))
    v = _validators_cache.get(key)
    if v is None:
        v = validator_class(fixes)(schema)
        _validators_cache[key] = v
    try:
        return bool(v.is_valid(case["instance"]))
    except Exception as e:  # noqa: BLE001 - reported as data
        return {"error": f"{type(e).__name__}: {str(e)[:300]}"}


def main():
    sys.setrecursionlimit(20000)
    out = sys.stdout
    for line in sys.stdin:
        if not line.strip():
            continue
        out.write(json.dumps(verdict(line), ensure_ascii=True))
        out.write("\n")
    out.flush()


if __name__ == "__main__":
    main()
