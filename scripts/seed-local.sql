-- Demo data for `npm run dev` (local D1 only): a few finished books by a demo visitor so the
-- shop's statistics are not all zero. Idempotent: it only inserts when the demo rows are absent.
INSERT INTO books (session_id, title, personal_message, book_type, status, total_pages)
SELECT 'demo-seed-visitor', 'Summer at Grandma''s', 'For Mia, with love', 'standard', 'ordered', 7
WHERE NOT EXISTS (SELECT 1 FROM books WHERE session_id = 'demo-seed-visitor');
INSERT INTO books (session_id, title, personal_message, book_type, status, total_pages)
SELECT 'demo-seed-visitor-2', 'Our Pets', NULL, 'premium', 'ready', 18
WHERE NOT EXISTS (SELECT 1 FROM books WHERE session_id = 'demo-seed-visitor-2');
INSERT INTO images (book_id, original_filename, original_key, sketch_key, is_selected, processing_status, quality_score, file_size, mime_type, width, height)
SELECT b.id, 'demo-' || n.value || '.jpg', 'demo/originals/' || b.id || '-' || n.value || '.jpg',
       'demo/sketches/' || b.id || '-' || n.value || '.png', 1, 'completed', 92, 250000, 'image/jpeg', 800, 600
FROM books b, json_each('[1,2,3,4,5]') n
WHERE b.session_id LIKE 'demo-seed-visitor%'
  AND NOT EXISTS (SELECT 1 FROM images i WHERE i.book_id = b.id);
