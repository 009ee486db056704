# Statements gorm (gorm.io/gorm with the gorm.io/driver/sqlite migrator) sends.
SELECT count(*) FROM sqlite_master WHERE type='table' AND name=?

SELECT count(*) FROM sqlite_master WHERE type = ? AND tbl_name = ? AND (sql LIKE ? OR sql LIKE ? OR sql LIKE ? OR sql LIKE ? OR sql LIKE ?)

SELECT count(*) FROM sqlite_master WHERE type = ? AND tbl_name = ? AND name = ?

SELECT sql FROM sqlite_master WHERE type = ? AND tbl_name = ? AND name = ?

SELECT sql FROM sqlite_master WHERE type = "table" AND tbl_name = ?

SELECT * FROM `users` LIMIT 1

CREATE TABLE `companies` (`id` integer,`name` text,PRIMARY KEY (`id`))

CREATE TABLE `users` (`id` integer PRIMARY KEY AUTOINCREMENT,`created_at` datetime,`updated_at` datetime,`deleted_at` datetime,`name` text NOT NULL,`email` text UNIQUE,`age` integer DEFAULT 18,`birthday` datetime,`company_id` integer,`manager_id` integer,`active` numeric DEFAULT true,`score` real DEFAULT 0.5,`role` text DEFAULT "member",CONSTRAINT `fk_users_company` FOREIGN KEY (`company_id`) REFERENCES `companies`(`id`),CONSTRAINT `fk_users_manager` FOREIGN KEY (`manager_id`) REFERENCES `users`(`id`) ON DELETE SET NULL ON UPDATE CASCADE,CONSTRAINT `chk_users_age` CHECK (age > 0))

CREATE INDEX `idx_users_deleted_at` ON `users`(`deleted_at`)

CREATE UNIQUE INDEX `idx_users_email` ON `users`(`email`)

CREATE TABLE `user_languages` (`user_id` integer,`language_code` text,PRIMARY KEY (`user_id`,`language_code`),CONSTRAINT `fk_user_languages_user` FOREIGN KEY (`user_id`) REFERENCES `users`(`id`),CONSTRAINT `fk_user_languages_language` FOREIGN KEY (`language_code`) REFERENCES `languages`(`code`))

ALTER TABLE `users` ADD `nickname` text

ALTER TABLE `users` DROP COLUMN `nickname`

ALTER TABLE `users` RENAME COLUMN `name` TO `full_name`

CREATE TABLE `users__temp` (`id` integer PRIMARY KEY AUTOINCREMENT,`name` text)

INSERT INTO `users__temp`(`id`,`name`) SELECT `id`,`name` FROM `users`

DROP TABLE `users`

ALTER TABLE `users__temp` RENAME TO `users`

DROP TABLE IF EXISTS `users`

DROP INDEX `idx_users_email`

PRAGMA foreign_keys = ON

PRAGMA foreign_keys

SELECT sqlite_version()

INSERT INTO `users` (`created_at`,`updated_at`,`deleted_at`,`name`,`age`,`birthday`,`company_id`,`manager_id`,`active`) VALUES (?,?,?,?,?,?,?,?,?) RETURNING `id`

INSERT INTO `users` (`created_at`,`updated_at`,`deleted_at`,`name`,`age`) VALUES (?,?,?,?,?),(?,?,?,?,?) RETURNING `id`

INSERT INTO `languages` (`code`,`name`) VALUES (?,?) ON CONFLICT DO NOTHING

INSERT INTO `users` (`id`,`name`,`age`) VALUES (?,?,?) ON CONFLICT (`id`) DO UPDATE SET `name`=`excluded`.`name`,`age`=`excluded`.`age` RETURNING `id`

INSERT INTO `user_languages` (`user_id`,`language_code`) VALUES (?,?) ON CONFLICT DO NOTHING

SELECT * FROM `users` WHERE `users`.`deleted_at` IS NULL ORDER BY `users`.`id` LIMIT 1

SELECT * FROM `users` WHERE name = ? AND `users`.`deleted_at` IS NULL ORDER BY `users`.`id` LIMIT 1

SELECT * FROM `users` WHERE `users`.`id` = ? AND `users`.`deleted_at` IS NULL

SELECT * FROM `users` WHERE name IN (?,?) AND `users`.`deleted_at` IS NULL

SELECT * FROM `users` WHERE (name = ? OR age > ?) AND `users`.`deleted_at` IS NULL ORDER BY age desc,name LIMIT 10 OFFSET 20

SELECT `name`,`age` FROM `users` WHERE `users`.`deleted_at` IS NULL

SELECT count(*) FROM `users` WHERE `users`.`deleted_at` IS NULL

SELECT `users`.`id`,`users`.`name`,`Company`.`id` AS `Company__id`,`Company`.`name` AS `Company__name` FROM `users` LEFT JOIN `companies` `Company` ON `users`.`company_id` = `Company`.`id` WHERE `users`.`deleted_at` IS NULL

SELECT * FROM `user_languages` WHERE `user_languages`.`user_id` IN (?,?,?)

UPDATE `users` SET `name`=?,`updated_at`=? WHERE `users`.`deleted_at` IS NULL AND `id` = ?

UPDATE `users` SET `age`=age + ?,`updated_at`=? WHERE id = ? AND `users`.`deleted_at` IS NULL

UPDATE `users` SET `deleted_at`=? WHERE `users`.`id` = ? AND `users`.`deleted_at` IS NULL

DELETE FROM `users` WHERE `users`.`id` = ?

DELETE FROM `users` WHERE name = ? RETURNING *

SAVEPOINT sp0x1a2b3c

ROLLBACK TO SAVEPOINT sp0x1a2b3c

RELEASE SAVEPOINT sp0x1a2b3c

SELECT * FROM `users` WHERE `users`.`deleted_at` IS NULL GROUP BY `name` HAVING count(*) > ?
