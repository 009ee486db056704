-- GRAPH_TABLE lowers to ordinary joins (hash or index joins ordered by estimate, the vertex filter pushed into its scan), a UNION ALL per table choice, and a GRAPH EXPAND for a quantified edge seeded by the start vertex's condition, stopping at a fixed end vertex and looking edges up through their indexes.
CREATE TABLE person (id INTEGER PRIMARY KEY, name TEXT, age INTEGER);
CREATE TABLE company (id INTEGER PRIMARY KEY, name TEXT);
CREATE TABLE knows (src INTEGER REFERENCES person, dst INTEGER REFERENCES person, since INTEGER);
CREATE TABLE works (p INTEGER REFERENCES person, c INTEGER REFERENCES company);
CREATE INDEX knows_src ON knows (src, dst);
CREATE INDEX knows_dst ON knows (dst, src);
CREATE PROPERTY GRAPH g VERTEX TABLES (person LABEL person LABEL entity PROPERTIES (id, name), company LABEL company LABEL entity PROPERTIES (id, name)) EDGE TABLES (knows SOURCE KEY (src) REFERENCES person DESTINATION KEY (dst) REFERENCES person, works SOURCE person DESTINATION company);
EXPLAIN QUERY PLAN SELECT * FROM GRAPH_TABLE (g MATCH (a IS person WHERE a.id = 7)-[IS knows]->(b IS person)-[IS knows]->(c IS person) COLUMNS (c.name AS name));
EXPLAIN QUERY PLAN SELECT * FROM GRAPH_TABLE (g MATCH (a IS person WHERE a.name = 'ann')-[k IS knows]-(b IS person) COLUMNS (b.name AS name, k.since AS since));
EXPLAIN QUERY PLAN SELECT * FROM GRAPH_TABLE (g MATCH (x IS entity WHERE x.name = 'acme') COLUMNS (x.id AS id));
EXPLAIN QUERY PLAN SELECT * FROM GRAPH_TABLE (g MATCH (a IS person WHERE a.id = 7)-[IS knows]->{1,3}(b IS person) COLUMNS (b.name AS name));
EXPLAIN QUERY PLAN SELECT * FROM GRAPH_TABLE (g MATCH p = ANY SHORTEST (a IS person WHERE a.id = ?)-[IS knows]->+(b IS person WHERE b.id = ?) COLUMNS (path_length(p) AS hops));
