"""The site's Content-Security-Policy (django-csp), imported by the settings.

Everything the pages run or style comes from the site itself: the vendored Bootstrap and
Chart.js, the site's own scripts and styles. No inline script or style attribute is needed
(the JSON a chart reads sits in a `type="application/json"` block, which is not run).
Bootstrap's CSS draws its checkboxes and selects with `data:` SVGs. Django's admin keeps its
own templates and is staff-only, so it is left out.
"""

from __future__ import annotations

from csp.constants import NONE, SELF

CONTENT_SECURITY_POLICY = {
    "EXCLUDE_URL_PREFIXES": ["/admin/"],
    "DIRECTIVES": {
        "default-src": [SELF],
        "script-src": [SELF],
        "style-src": [SELF],
        "img-src": [SELF, "data:"],
        "font-src": [SELF, "data:"],
        "connect-src": [SELF],
        "object-src": [NONE],
        "base-uri": [SELF],
        "form-action": [SELF],
        "frame-ancestors": [NONE],
    },
}
