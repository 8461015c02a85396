CREATE OR REPLACE FUNCTION vw_announce() RETURNS trigger LANGUAGE plpgsql AS $body$
BEGIN
    PERFORM pg_notify('vw_games', COALESCE(current_setting('vw.me', true), '') || ' ' || NEW.id);
    RETURN NULL;
END
$body$;

CREATE OR REPLACE TRIGGER vw_games_changed AFTER UPDATE ON games FOR EACH ROW
    WHEN (OLD.version IS DISTINCT FROM NEW.version) EXECUTE FUNCTION vw_announce();

CREATE OR REPLACE FUNCTION vw_announce_note() RETURNS trigger LANGUAGE plpgsql AS $body$
BEGIN
    PERFORM pg_notify('vw_notes', NEW.account);
    RETURN NULL;
END
$body$;

CREATE OR REPLACE TRIGGER vw_notes_added AFTER INSERT ON notifications FOR EACH ROW
    EXECUTE FUNCTION vw_announce_note();
