# ruff: noqa: E501  (a corpus of one-line queries: each reads best whole)
"""A corpus of hostile SPARQL candidates, as an attacker's QAnswer-shaped backend would send
them (issue 35): :func:`hostile` gives ``(kind, name, sparql)`` for a listener URL that must
never hear a request.  Used by tests/core/test_probe_corpus.py and benchmarks/probe_corpus.py.

No candidate may give an answer: each is rejected by the guard, or what runs of it finds
nothing, fails or is stopped at its deadline.
"""

from __future__ import annotations

BASE = "SELECT ?answer WHERE { wd:Q937 wdt:P19 ?answer "
"""Einstein's birthplace (Ulm in the tiny graph): what the hidden parts below try to change."""

TERMINATORS = {"cr": "\r", "cr_cr": "\r\r", "ls": "\u2028", "ps": "\u2029", "nel": "\x85", "ff": "\f", "vt": "\v",
               "nul": "\x00", "fs": "\x1c", "gs": "\x1d", "rs": "\x1e", "us": "\x1f", "bs": "\b", "esc": "\x1b"}
"""Characters some parser may take to end a ``#`` comment (rdflib ends one at ``\\n`` only)."""


def hostile(listener: str) -> list[tuple[str, str, str]]:
    """``(kind, name, candidate)``; ``listener`` is a URL that must receive nothing."""
    svc = f"SERVICE <{listener}/sparql> {{ ?s ?p ?answer }}"
    out: list[tuple[str, str, str]] = []

    def add(kind: str, name: str, sparql: str) -> None:
        out.append((kind, name, sparql))

    # SERVICE hidden in every place
    add("service", "plain", f"SELECT ?answer WHERE {{ {svc} }}")
    add("service", "silent", f"SELECT ?answer WHERE {{ SERVICE SILENT <{listener}/x> {{ ?s ?p ?answer }} }}")
    add("service", "lower_case", f"select ?answer where {{ service <{listener}/x> {{ ?s ?p ?answer }} }}")
    add("service", "variable_endpoint", "SELECT ?answer WHERE { wd:Q937 wdt:P19 ?e . SERVICE ?e { ?s ?p ?answer } }")
    add("service", "after_triple", f"{BASE}. {svc} }}")
    add("service", "in_optional", f"{BASE}OPTIONAL {{ {svc} }} }}")
    add("service", "in_union", f"SELECT ?answer WHERE {{ {{ wd:Q937 wdt:P19 ?answer }} UNION {{ {svc} }} }}")
    add("service", "in_exists", f"{BASE}FILTER EXISTS {{ {svc} }} }}")
    add("service", "in_not_exists", f"{BASE}FILTER NOT EXISTS {{ {svc} }} }}")
    add("service", "in_minus", f"{BASE}MINUS {{ {svc} }} }}")
    add("service", "in_subquery", f"SELECT ?answer WHERE {{ {{ SELECT ?answer WHERE {{ {svc} }} }} }}")
    add("service", "in_graph", f"SELECT ?answer WHERE {{ GRAPH ?g {{ {svc} }} }}")
    add("service", "prefixed_endpoint", "SELECT ?answer WHERE { SERVICE wd:Q1 { ?s ?p ?answer } }")
    add("service", "nested_groups", f"SELECT ?answer WHERE {{ {{ {{ {svc} }} }} }}")
    # comment and line-break differentials: text after the character is invisible to rdflib
    for name, char in TERMINATORS.items():
        add("comment", f"service_after_{name}", f"{BASE}. # ok{char}{svc} \n}}")
    add("comment", "literal_after_cr", "SELECT ?answer WHERE { wd:Q937 wdt:P19 ?b # \r VALUES ?answer { \"Paris\" }\n}")
    add("comment", "crlf_then_service", f"{BASE}. # a comment\r\n{svc} }}")
    add("comment", "comment_hides_brace", f"{BASE}# }}\r{svc} }}\n}}")
    add("comment", "line_separator_as_space", "SELECT\u2028?answer WHERE { wd:Q937 wdt:P19 ?answer }")
    add("comment", "bom_first", f"\ufeff{BASE}}}\r{svc}")
    # escapes: \u sequences some parsers expand before parsing
    add("escape", "hash_escape", f"{BASE}. \\u0023 }} {svc} \n}}")
    add("escape", "long_hash_escape", f"{BASE}. \\U00000023 }} {svc} \n}}")
    add("escape", "newline_escape_in_comment", f"{BASE}. # x\\u000A{svc} \n}}")
    add("escape", "cr_escape_in_comment", f"{BASE}. # x\\u000D{svc} \n}}")
    add("escape", "quote_escape_in_literal", f"{BASE}FILTER(?answer != \"\\u0022) }} {svc} {{ \") }}")
    add("escape", "brace_escape", f"{BASE}\\u007D {svc}")
    add("escape", "iri_escape", "SELECT ?answer WHERE { wd:Q937 <http://www.wikidata.org/prop/direct/P19\\u003E> ?answer }")
    add("escape", "escaped_service_keyword", f"SELECT ?answer WHERE {{ \\u0053ERVICE <{listener}/x> {{ ?s ?p ?answer }} }}")
    add("escape", "string_escape_cr", f"{BASE}FILTER(STR(?answer) != \"a\\rb\") }} # \r {svc}")
    add("escape", "backslash_run", f"{BASE}FILTER(STR(?answer) = \"\\\\\\\") }} {svc} {{ \") }}")
    # Unicode tricks on keywords
    add("unicode", "fullwidth_service", f"SELECT ?answer WHERE {{ ＳＥＲＶＩＣＥ <{listener}/x> {{ ?s ?p ?answer }} }}")
    add("unicode", "cyrillic_s", f"SELECT ?answer WHERE {{ \u0405ERVICE <{listener}/x> {{ ?s ?p ?answer }} }}")
    add("unicode", "zero_width_in_keyword", f"SELECT ?answer WHERE {{ SER\u200bVICE <{listener}/x> {{ ?s ?p ?answer }} }}")
    add("unicode", "rtl_override", f"{BASE}\u202e}} {svc}")
    add("unicode", "nbsp_whitespace", f"SELECT\u00a0?answer WHERE {{ {svc} }}")
    add("unicode", "dotless_i_limit", f"{BASE}}} LİMİT 10")
    add("unicode", "combining_mark", f"SELECT ?answer WHERE {{ S\u0301ERVICE <{listener}/x> {{ ?s ?p ?answer }} }}")
    add("unicode", "surrogate_like", f"{BASE}. FILTER(?answer != \"\\uD800\") }}")
    # EXISTS, MINUS, sub-SELECT, OPTIONAL, UNION
    add("pattern", "exists", f"{BASE}FILTER EXISTS {{ ?answer ?p ?o }} }}")
    add("pattern", "not_exists", f"{BASE}FILTER NOT EXISTS {{ ?answer ?p ?o }} }}")
    add("pattern", "minus", f"{BASE}MINUS {{ ?answer ?p ?o }} }}")
    add("pattern", "subselect", "SELECT ?answer WHERE { { SELECT ?answer WHERE { ?answer ?p ?o } LIMIT 1000 } }")
    add("pattern", "optional_scan", f"{BASE}OPTIONAL {{ ?x ?y ?z }} }}")
    add("pattern", "union_scan", "SELECT ?answer WHERE { { wd:Q937 wdt:P19 ?answer } UNION { ?answer ?p ?o } }")
    add("pattern", "exists_in_bind", f"{BASE}BIND(EXISTS {{ ?a ?b ?c }} AS ?e) }}")
    add("pattern", "values_only", "SELECT ?answer WHERE { VALUES ?answer { \"Paris\" } }")
    # negated and unanchored paths
    add("path", "negated", "SELECT ?answer WHERE { wd:Q937 !wdt:P19 ?answer }")
    add("path", "negated_inverse", "SELECT ?answer WHERE { wd:Q937 !(wdt:P19|^wdt:P19) ?answer }")
    add("path", "free_star", "SELECT ?answer WHERE { ?answer wdt:P279* ?y }")
    add("path", "star_of_sequence", "SELECT ?answer WHERE { wd:Q937 (wdt:P19/wdt:P17)* ?answer }")
    add("path", "star_of_alternative", "SELECT ?answer WHERE { wd:Q937 (wdt:P19|wdt:P17)+ ?answer }")
    add("path", "two_closures", "SELECT ?answer WHERE { wd:Q937 wdt:P19+/wdt:P17* ?answer }")
    add("path", "closure_of_inverse", "SELECT ?answer WHERE { wd:Q937 (^wdt:P19)* ?answer }")
    add("path", "star_between_variables", "SELECT ?answer WHERE { wd:Q937 wdt:P19 ?x . ?x wdt:P131* ?answer }")
    add("path", "long_sequence", "SELECT ?answer WHERE { wd:Q937 " + "/".join(["wdt:P19"] * 8) + " ?answer }")
    add("path", "inverse_only_scan", "SELECT ?answer WHERE { ?x ^wdt:P19 ?answer }")
    add("path", "negated_star", "SELECT ?answer WHERE { wd:Q937 (!wdt:P1)* ?answer }")
    # updates
    add("update", "insert_data", "INSERT DATA { wd:Q937 wdt:P19 \"Paris\" }")
    add("update", "delete_where", "DELETE WHERE { ?s ?p ?o }")
    add("update", "load", f"LOAD <{listener}/data.nt>")
    add("update", "load_silent_into", f"LOAD SILENT <{listener}/d.nt> INTO GRAPH <{listener}/g>")
    add("update", "clear_all", "CLEAR ALL")
    add("update", "drop_all", "DROP ALL")
    add("update", "create_graph", f"CREATE GRAPH <{listener}/g>")
    add("update", "copy", "COPY DEFAULT TO <http://example.org/g>")
    add("update", "query_then_update", f"{BASE}}} ; DROP ALL")
    add("update", "with_delete_insert", "WITH <http://e.org/g> DELETE { ?s ?p ?o } INSERT { ?s ?p \"x\" } WHERE { ?s ?p ?o }")
    # huge queries
    add("huge", "one_megabyte", BASE + ". " + "# " + "x" * (1 << 20) + "\n}")
    add("huge", "just_past_the_limit", BASE + "} #" + "x" * 4000)
    add("huge", "many_patterns", "SELECT ?answer WHERE { " + " ".join(f"wd:Q937 wdt:P{i} ?answer ." for i in range(1, 60)) + " }")
    add("huge", "many_values", "SELECT ?answer WHERE { VALUES ?x { " + " ".join(f"wd:Q{i}" for i in range(1, 400)) + " } ?x wdt:P19 ?answer }")
    add("huge", "long_literal", BASE + "FILTER(STR(?answer) = \"" + "a" * 3000 + "\") }")
    add("huge", "long_iri", "SELECT ?answer WHERE { <http://e.org/" + "a" * 3500 + "> wdt:P19 ?answer }")
    add("huge", "many_variables", "SELECT " + " ".join(f"?v{i}" for i in range(300)) + " WHERE { wd:Q937 wdt:P19 ?v0 }")
    # deep nesting and parser cost
    add("nesting", "sixty_empty_groups", "SELECT ?answer WHERE { " + "{} " * 60 + "}")
    add("nesting", "forty_nested_groups", "SELECT ?answer WHERE " + "{ " * 40 + "wd:Q937 wdt:P19 ?answer" + " }" * 40)
    add("nesting", "hundred_parentheses", BASE + "FILTER(" + "(" * 100 + "true" + ")" * 100 + ") }")
    add("nesting", "nested_paths", "SELECT ?answer WHERE { wd:Q937 " + "(" * 30 + "wdt:P19" + ")" * 30 + " ?answer }")
    add("nesting", "nested_optionals", BASE + "OPTIONAL { " * 16 + "?a ?b ?c" + " }" * 16 + " }")
    add("nesting", "groups_and_filters", "SELECT ?answer WHERE { " + "{ ?a ?b ?answer FILTER(true) } " * 12 + "}")
    add("nesting", "unbalanced", BASE + "{ { { { { {")
    add("nesting", "nested_expressions", BASE + "FILTER(" + "!(" * 20 + "true" + ")" * 20 + ") }")
    # BIND bombs and string building
    doubling = " ".join(f"BIND(CONCAT(?s{i}, ?s{i}) AS ?s{i + 1})" for i in range(24))
    add("bind", "concat_doubling_24", f"SELECT ?answer WHERE {{ wd:Q937 rdfs:label ?s0 . {doubling} BIND(?s24 AS ?answer) }}")
    add("bind", "concat_doubling_3", "SELECT ?answer WHERE { wd:Q937 rdfs:label ?s0 . BIND(CONCAT(?s0, ?s0) AS ?s1) "
        "BIND(CONCAT(?s1, ?s1) AS ?s2) BIND(CONCAT(?s2, ?s2) AS ?s3) ?answer rdfs:label ?s3 }")
    add("bind", "concat_many_args", f"{BASE}. ?answer rdfs:label ?l FILTER(STRLEN(CONCAT(" + ", ".join(["?l"] * 40) + ")) > 0) }")
    add("bind", "replace_growth", f"{BASE}. ?answer rdfs:label ?l FILTER(STRLEN(REPLACE(?l, \"\", \"xxxxxxxxxxxxxxxx\")) > 0) }}")
    add("bind", "group_concat", "SELECT (GROUP_CONCAT(?l) AS ?answer) WHERE { wd:Q937 rdfs:label ?l }")
    add("bind", "struuid", f"{BASE}BIND(STRUUID() AS ?u) }}")
    add("bind", "iri_builder", f"{BASE}BIND(IRI(CONCAT(\"{listener}/\", STR(?answer))) AS ?u) }}")
    add("bind", "three_binds", f"{BASE}BIND(1 AS ?a) BIND(2 AS ?b) BIND(3 AS ?c) }}")
    add("bind", "substr_chain", f"{BASE}. ?answer rdfs:label ?l FILTER(UCASE(LCASE(SUBSTR(?l, 1))) != \"\") }}")
    add("bind", "encode_for_uri", f"{BASE}FILTER(ENCODE_FOR_URI(STR(?answer)) != \"\") }}")
    # join chains and unbound predicates
    add("join", "variable_predicate_chain", "SELECT ?answer WHERE { ?x1 ?p1 wd:Q5 . ?x1 ?p2 ?x2 . ?x2 ?p3 wd:Q5 . "
        "?x2 ?p4 ?answer }")
    add("join", "predicate_between_variables", "SELECT ?answer WHERE { ?a wdt:P31 wd:Q5 . ?b wdt:P31 wd:Q5 . ?a ?p ?b . "
        "?b wdt:P19 ?answer }")
    add("join", "two_variable_predicates", "SELECT ?answer WHERE { wd:Q937 ?p ?x . ?x ?q ?answer }")
    add("join", "wide_pair", "SELECT ?answer WHERE { ?a wdt:P31 wd:Q5 . ?b wdt:P31 wd:Q5 . ?a wdt:P27 ?answer . "
        "?b wdt:P27 ?answer }")
    add("join", "deep_chain", "SELECT ?answer WHERE { wd:Q937 wdt:P19 ?x1 . ?x1 wdt:P17 ?x2 . ?x2 wdt:P36 ?x3 . "
        "?x3 wdt:P17 ?x4 . ?x4 wdt:P36 ?x5 . ?x5 wdt:P17 ?answer }")
    add("join", "chain_of_constants", "SELECT ?answer WHERE { ?x1 ?p1 wd:Q5 . ?x2 ?p2 wd:Q5 . ?x1 wdt:P27 ?c . "
        "?x2 wdt:P27 ?c . ?c wdt:P36 ?answer }")
    add("join", "three_wide", "SELECT ?answer WHERE { ?a wdt:P31 wd:Q5 . ?b wdt:P31 wd:Q5 . ?c wdt:P31 wd:Q5 . "
        "?a wdt:P27 ?answer . ?b wdt:P27 ?answer . ?c wdt:P27 ?answer }")
    add("join", "variable_predicate_on_class", "SELECT ?answer WHERE { ?x wdt:P31 wd:Q5 . ?x ?p ?answer }")
    # regular-expression bombs
    add("regex", "catastrophic", f"{BASE}. ?answer rdfs:label ?l FILTER(REGEX(?l, \"(a+)+$\")) FILTER(?l = \"x\") }}")
    add("regex", "variable_pattern", f"{BASE}. ?answer rdfs:label ?l FILTER(REGEX(?l, ?l)) }}")
    add("regex", "huge_repetition", f"{BASE}. ?answer rdfs:label ?l FILTER(REGEX(?l, \"a{{1000}}{{1000}}\")) }}")
    add("regex", "long_pattern", f"{BASE}. ?answer rdfs:label ?l FILTER(REGEX(?l, \"" + "a?" * 200 + "\")) }")
    add("regex", "bad_flags", f"{BASE}. ?answer rdfs:label ?l FILTER(REGEX(?l, \"a\", \"q\")) }}")
    add("regex", "three_regex", f"{BASE}. ?answer rdfs:label ?l FILTER(REGEX(?l, \"a\") && REGEX(?l, \"b\") && "
        "REGEX(?l, \"c\")) }")
    # cartesian products and scans
    add("cartesian", "three_scans", f"{BASE}. ?a ?b ?c . ?d ?e ?f }}")
    add("cartesian", "two_anchored_groups", "SELECT ?answer WHERE { ?answer wdt:P31 wd:Q5 . ?x wdt:P31 wd:Q5 }")
    add("cartesian", "scan_only", "SELECT ?answer WHERE { ?answer ?p ?o }")
    add("cartesian", "order_by_scan", "SELECT ?answer WHERE { ?answer ?p ?o } ORDER BY ?o LIMIT 1")
    add("cartesian", "count_everything", "SELECT (COUNT(*) AS ?answer) WHERE { ?a ?b ?c . ?d ?e ?f }")
    add("cartesian", "blank_node_scan", "SELECT ?answer WHERE { [] ?p ?answer }")
    add("cartesian", "values_product", "SELECT ?answer WHERE { VALUES ?x { wd:Q937 } ?x wdt:P19 ?b . ?answer ?p ?o }")
    # LIMIT and OFFSET tricks
    add("limit", "huge_limit", f"{BASE}}} LIMIT 1000000000000")
    add("limit", "negative_limit", f"{BASE}}} LIMIT -1")
    add("limit", "huge_offset", f"{BASE}}} OFFSET 1000000000")
    add("limit", "decimal_limit", f"{BASE}}} LIMIT 1.5")
    add("limit", "two_limits", f"{BASE}}} LIMIT 1000 LIMIT 5")
    add("limit", "limit_zero_no_answer", f"{BASE}}} LIMIT 0")
    add("limit", "offset_past_answers", f"{BASE}}} OFFSET 5")
    # datasets and graphs
    add("dataset", "from", f"SELECT ?answer FROM <{listener}/g> WHERE {{ wd:Q937 wdt:P19 ?answer }}")
    add("dataset", "from_named", f"SELECT ?answer FROM NAMED <{listener}/g> WHERE {{ wd:Q937 wdt:P19 ?answer }}")
    add("dataset", "graph_variable", "SELECT ?answer WHERE { GRAPH ?g { wd:Q937 wdt:P19 ?answer } }")
    add("dataset", "graph_iri", f"SELECT ?answer WHERE {{ GRAPH <{listener}/g> {{ wd:Q937 wdt:P19 ?answer }} }}")
    add("dataset", "construct", "CONSTRUCT { ?s ?p ?o } WHERE { wd:Q937 ?p ?o }")
    add("dataset", "describe", f"DESCRIBE <{listener}/x>")
    # literal and IRI injection
    add("literal", "values_constant", "SELECT ?answer WHERE { VALUES ?answer { \"Paris\" } wd:Q937 wdt:P19 ?x }")
    add("literal", "bind_constant", "SELECT ?answer WHERE { wd:Q937 wdt:P19 ?x . BIND(\"Paris\" AS ?answer) }")
    add("literal", "coalesce_constant", "SELECT (COALESCE(?x, \"Paris\") AS ?answer) WHERE { wd:Q937 wdt:P19 ?x }")
    add("literal", "sample_constant", "SELECT (SAMPLE(\"Paris\") AS ?answer) WHERE { wd:Q937 wdt:P19 ?x }")
    add("literal", "escaped_quote_breakout", f"{BASE}FILTER(STR(?answer) = \"\\\" ) }} {svc} {{ \\\"\") }}")
    add("literal", "triple_quoted_newline", f"{BASE}FILTER(STR(?answer) = \"\"\"a\n}} {svc} {{\n\"\"\") }}")
    add("literal", "single_quoted", f"{BASE}FILTER(STR(?answer) = '\\' }} {svc} {{ ') }}")
    add("literal", "language_tag_injection", f"{BASE}FILTER(STR(?answer) = \"x\"@en-{'a' * 60}) }}")
    add("literal", "datatype_iri_breakout", f"{BASE}FILTER(?answer = \"x\"^^<http://e.org/t> {svc}) }}")
    add("literal", "iri_with_space", "SELECT ?answer WHERE { <http://e.org/a b> wdt:P19 ?answer }")
    add("literal", "iri_with_brace", f"SELECT ?answer WHERE {{ <http://e.org/a>}}{svc}{{<x> wdt:P19 ?answer }}")
    add("literal", "ask_constant", "ASK { VALUES ?x { 1 } }")
    add("literal", "ask_nothing", "ASK { }")
    # other engines' features and odd forms
    add("other", "extension_function", f"{BASE}FILTER(<{listener}/f>(?answer)) }}")
    add("other", "property_function", "SELECT ?answer WHERE { ?answer <http://jena.apache.org/text#query> \"x\" }")
    add("other", "order_by_rand", f"{BASE}}} ORDER BY RAND()")
    add("other", "many_order_conditions", f"{BASE}}} ORDER BY " + " ".join(["?answer"] * 8))
    add("other", "bnode_function", f"{BASE}BIND(BNODE() AS ?b) }}")
    add("other", "base_iri", f"BASE <{listener}/> SELECT ?answer WHERE {{ <x> wdt:P19 ?answer }}")
    add("other", "prefix_redefined", f"PREFIX wdt: <{listener}/> {BASE}}}")
    add("other", "empty", "")
    add("other", "whitespace", " \n\t ")
    add("other", "not_sparql", "<script>alert(1)</script>")
    return out
