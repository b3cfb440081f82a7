-- Incident numbers (INC-n) are taken only by incidents that are written: the number is drawn after the
-- row has passed validation (incidents_before runs first, triggers fire in name order), not as a column
-- default, so a refused insert ("title: is required") no longer leaves a gap in the numbers people see.
-- The server always numbers a new incident (clients may not write the column at all).

ALTER TABLE incidents ALTER COLUMN incident_id DROP DEFAULT;

CREATE FUNCTION incidents_number() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  NEW.incident_id := 'INC-' || nextval('incident_number_seq');
  RETURN NEW;
END
$$;
CREATE TRIGGER incidents_number BEFORE INSERT ON incidents FOR EACH ROW EXECUTE FUNCTION incidents_number();
