-- Reserved; the feature that owns this migration fills it in.
SELECT 1;
