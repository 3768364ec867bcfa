/**
 * The compilers the public routes share. Their schemas document; they do not validate.
 * The contract fixes the order of the checks (the /push status table: did before shop
 * state before event …), which a schema validator cannot follow, so the routes compile
 * them with noSchemaValidation and each group's *.params.ts mappers check by hand.
 */

/** The validator compiler of the public routes: every request passes (see above). */
export function noSchemaValidation(): (data: unknown) => boolean {
  return () => true;
}

/**
 * A plain JSON.stringify serialiser compiler, for answers built of product views: they
 * carry a record of locations (which a compiled serialiser would need spelled out), their
 * 200 schema may be a union (bare or enveloped, interface.md "Versioning"), and the views
 * already hold exactly the contract's fields.
 */
export function plainJson(): (data: unknown) => string {
  return (data) => JSON.stringify(data);
}
