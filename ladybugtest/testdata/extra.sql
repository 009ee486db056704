INSERT INTO orders (user_id, total) VALUES (2, 100);
