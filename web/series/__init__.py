"""A series (festival, issue 17): the director's pages, its public schedule (phone and
TV) and its API. The lobby's rotation through its running events is in web.screens."""
