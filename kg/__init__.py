"""The knowledge graph: an embedded pyoxigraph store or a remote SPARQL endpoint.

* :mod:`kg.sparql` - IRIs, prefixes and literal escaping (the only way queries are built);
* :mod:`kg.store`  - build / open the persistent embedded store;
* :mod:`kg.build`  - ``kgqa build-kg``: the store and the label index, rebuilt when the source changes;
* :mod:`kg.labels` - the label index the linker reads (the KG's labels and aliases);
* :mod:`kg.cldr`   - CLDR's names of countries, languages and currencies in the chat's languages;
* :mod:`kg.client` - the :class:`kg.client.KG` protocol with the embedded and remote
  (SPARQL 1.1 over httpx) clients.
* :mod:`kg.bounded` - every embedded query in a worker process (:mod:`kg.query_worker`)
  with a deadline, a memory limit and no network (docs/security.md).
"""
