#!/usr/bin/env python3
"""Extract the text of every HTML element with a given tag name from an HTML string."""
import json
import sys
from html.parser import HTMLParser

VOID_TAGS = {"area", "base", "br", "col", "embed", "hr", "img", "input",
             "link", "meta", "source", "track", "wbr"}


class TagTextParser(HTMLParser):
    """Collects the text inside each element whose tag matches `tag`."""

    def __init__(self, tag):
        super().__init__(convert_charrefs=True)
        self.tag = tag
        self.depth = 0
        self.current = []
        self.results = []

    def handle_starttag(self, tag, attrs):
        if tag == self.tag and tag not in VOID_TAGS:
            if self.depth == 0:
                self.current = []
            self.depth += 1

    def handle_endtag(self, tag):
        if tag == self.tag and self.depth > 0:
            self.depth -= 1
            if self.depth == 0:
                self.results.append(" ".join("".join(self.current).split()))

    def handle_data(self, data):
        if self.depth > 0:
            self.current.append(data)


def main(args):
    html = args.get("html")
    selector = args.get("selector")
    if not isinstance(html, str):
        raise ValueError("'html' must be a string")
    if not isinstance(selector, str) or not selector.strip().isalnum():
        raise ValueError("'selector' must be a tag name such as 'h2'")
    parser = TagTextParser(selector.strip().lower())
    parser.feed(html)
    parser.close()
    return parser.results


if __name__ == "__main__":
    try:
        raw = sys.argv[1] if len(sys.argv) > 1 else sys.stdin.read()
        args = json.loads(raw or "{}")
        if not isinstance(args, dict):
            raise ValueError("arguments must be a JSON object")
        print(json.dumps({"success": True, "result": main(args)}))
        sys.exit(0)
    except Exception as exc:  # report every failure as JSON
        print(json.dumps({"success": False, "error": str(exc)}))
        sys.exit(1)
