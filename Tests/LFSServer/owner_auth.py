"""giftless's authenticator for the tests' LFS server: the user the web server in front has
already checked.

giftless serves the repository `<uid>.git` under `/git/` as organization `git`, repository
`<uid>`. The web server (lighttpd, Tests/CairnTestSupport/Servers/GitHTTPServer.swift) lets a
request through only with the password of the repository's owner, and passes its basic-auth
header on; this gives that user every permission on their own repository's objects and none on
another's, so giftless keeps users apart too, not the web server alone. giftless is reached
only through the web server (it listens on a Unix socket in the server's private folder).

giftless's own `giftless.auth.allow_anon:read_write` cannot stand in: its anonymous identity is
refused every request that names an object (giftless 0.6.2 looks the object's id up among
permissions granted to no object), so a batch request gets 403.
"""
from giftless.auth.identity import DefaultIdentity, Permission

ORGANIZATION = "git"


def owner(request):
    """The identity of the user named in the request's basic-auth header (None without one,
    which giftless answers with 401)."""
    credentials = request.authorization
    if credentials is None or not credentials.username:
        return None
    identity = DefaultIdentity(name=credentials.username, id=credentials.username)
    identity.allow(organization=ORGANIZATION, repo=credentials.username, permissions=Permission.all())
    return identity
