/**
 * The official JSON Schema draft 2020-12 metaschema and its vocabulary metaschemas, bundled so that a
 * `$ref` to `https://json-schema.org/draft/2020-12/schema` resolves without network access.
 * Copied as data from the JSON Schema specification, less the annotations no validation reads
 * (`title`, `description`, `$comment`), which cost the root bundle a kilobyte. `~` stands for
 * `https://json-schema.org/draft/2020-12/` (31 times, another kilobyte), and five more characters
 * for the five texts that repeat most (`SHORT`, 1.3 kilobytes).
 *
 * @module
 */

/** The shorthands of the documents' text, each a character the documents do not hold. */
const SHORT: Record<string, string> = {
  "!": '"$dynamicAnchor":"meta","type":["object","boolean"],"properties":{',
  "=": '{"$schema":"~schema","$id":"~meta/',
  "@": '{"$dynamicRef":"#meta"}',
  "&": '"$vocabulary":{"~vocab/',
  "|": '"$ref":"#/$defs/',
};

let documents: readonly unknown[] | undefined;

/**
 * The draft 2020-12 metaschema documents, each with its own `$id`: decoded on first use, not when
 * the root is imported (about a millisecond).
 */
export const metaschemaDocuments = (): readonly unknown[] =>
  documents ??= JSON.parse(
    '[{"$schema":"~schema","$id":"~schema",&core":true,"~vocab/applicator":true,"~vocab/unevaluated":true,"~vocab/validation":true,"~vocab/meta-data":true,"~vocab/format-annotation":true,"~vocab/content":true},"$dynamicAnchor":"meta","allOf":[{"$ref":"meta/core"},{"$ref":"meta/applicator"},{"$ref":"meta/unevaluated"},{"$ref":"meta/validation"},{"$ref":"meta/meta-data"},{"$ref":"meta/format-annotation"},{"$ref":"meta/content"}],"type":["object","boolean"],"properties":{"definitions":{"type":"object","additionalProperties":@,"deprecated":true,"default":{}},"dependencies":{"type":"object","additionalProperties":{"anyOf":[@,{"$ref":"meta/validation#/$defs/stringArray"}]},"deprecated":true,"default":{}},"$recursiveAnchor":{"$ref":"meta/core#/$defs/anchorString","deprecated":true},"$recursiveRef":{"$ref":"meta/core#/$defs/uriReferenceString","deprecated":true}}},=core",&core":true},!"$id":{|uriReferenceString","pattern":"^[^#]*#?$"},"$schema":{|uriString"},"$ref":{|uriReferenceString"},"$anchor":{|anchorString"},"$dynamicRef":{|uriReferenceString"},"$dynamicAnchor":{|anchorString"},"$vocabulary":{"type":"object","propertyNames":{|uriString"},"additionalProperties":{"type":"boolean"}},"$comment":{"type":"string"},"$defs":{"type":"object","additionalProperties":@}},"$defs":{"anchorString":{"type":"string","pattern":"^[A-Za-z_][-A-Za-z0-9._]*$"},"uriString":{"type":"string","format":"uri"},"uriReferenceString":{"type":"string","format":"uri-reference"}}},=applicator",&applicator":true},!"prefixItems":{|schemaArray"},"items":@,"contains":@,"additionalProperties":@,"properties":{"type":"object","additionalProperties":@,"default":{}},"patternProperties":{"type":"object","additionalProperties":@,"propertyNames":{"format":"regex"},"default":{}},"dependentSchemas":{"type":"object","additionalProperties":@,"default":{}},"propertyNames":@,"if":@,"then":@,"else":@,"allOf":{|schemaArray"},"anyOf":{|schemaArray"},"oneOf":{|schemaArray"},"not":@},"$defs":{"schemaArray":{"type":"array","minItems":1,"items":@}}},=unevaluated",&unevaluated":true},!"unevaluatedItems":@,"unevaluatedProperties":@}},=validation",&validation":true},!"type":{"anyOf":[{|simpleTypes"},{"type":"array","items":{|simpleTypes"},"minItems":1,"uniqueItems":true}]},"const":true,"enum":{"type":"array","items":true},"multipleOf":{"type":"number","exclusiveMinimum":0},"maximum":{"type":"number"},"exclusiveMaximum":{"type":"number"},"minimum":{"type":"number"},"exclusiveMinimum":{"type":"number"},"maxLength":{|nonNegativeInteger"},"minLength":{|nonNegativeIntegerDefault0"},"pattern":{"type":"string","format":"regex"},"maxItems":{|nonNegativeInteger"},"minItems":{|nonNegativeIntegerDefault0"},"uniqueItems":{"type":"boolean","default":false},"maxContains":{|nonNegativeInteger"},"minContains":{|nonNegativeInteger","default":1},"maxProperties":{|nonNegativeInteger"},"minProperties":{|nonNegativeIntegerDefault0"},"required":{|stringArray"},"dependentRequired":{"type":"object","additionalProperties":{|stringArray"}}},"$defs":{"nonNegativeInteger":{"type":"integer","minimum":0},"nonNegativeIntegerDefault0":{|nonNegativeInteger","default":0},"simpleTypes":{"enum":["array","boolean","integer","null","number","object","string"]},"stringArray":{"type":"array","items":{"type":"string"},"uniqueItems":true,"default":[]}}},=meta-data",&meta-data":true},!"title":{"type":"string"},"description":{"type":"string"},"default":true,"deprecated":{"type":"boolean","default":false},"readOnly":{"type":"boolean","default":false},"writeOnly":{"type":"boolean","default":false},"examples":{"type":"array","items":true}}},=format-annotation",&format-annotation":true},!"format":{"type":"string"}}},=content",&content":true},!"contentEncoding":{"type":"string"},"contentMediaType":{"type":"string"},"contentSchema":@}}]'
      .replace(/[!=@&|]/g, (c) => SHORT[c]!)
      .replaceAll("~", "https://json-schema.org/draft/2020-12/"),
  );
