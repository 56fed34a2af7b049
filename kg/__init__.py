"""The knowledge graph: an embedded pyoxigraph store or a remote SPARQL endpoint.

* :mod:`kg.sparql` - IRIs, prefixes and literal escaping (the only way queries are built);
* :mod:`kg.store`  - build / open the persistent embedded store;
* :mod:`kg.client` - the :class:`kg.client.KG` protocol with embedded and remote clients;
* :mod:`kg.bounded` - every embedded query in a worker process (:mod:`kg.query_worker`)
  with a deadline, a memory limit and no network (docs/security.md).
"""
