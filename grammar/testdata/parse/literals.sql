# Literals: integers (hex too), reals, strings with '' escapes, blobs,
# NULL, booleans and the CURRENT_ keywords.
SELECT 0, 42, 0x1F, 0XFF, 1.5, .5, 5., 1e10, 2.5E-3, 1e+2

SELECT 'it''s', '', 'multi
line', X'ABCD', x'', NULL, TRUE, FALSE, true

SELECT CURRENT_DATE, CURRENT_TIME, CURRENT_TIMESTAMP
