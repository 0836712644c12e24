/** What the form's templates are given: the titles of the field groups and the fields' labels. */
export type SchemaFormContext = { groups: Record<string, string>; labels: Record<string, string> };
