INSERT INTO users (id, email, name) VALUES (1, 'ada@example.com', 'Ada'), (2, 'bob@example.com', 'Bob');
INSERT INTO orders (user_id, total) VALUES (1, 9.5), (1, 20), (2, 3.25);
