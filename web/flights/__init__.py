"""A multi-flight event's first days (issue 17): the event's flights page, and a flight's
end at the floor (the stop, the bagging page, the check and the director's confirmation,
the bag-and-tag sheet), with their API. They tie prizes (adding a flight), the clock (the
stop), seating (who sits where) and tournaments (the bags) together."""
