-- chatBotType takes only the spec's value, text (the one menu style the bot sends): a company that
-- saved button or list before keeps the menus it was already getting, now shown as such.
UPDATE "settings" SET "value" = 'text' WHERE "key" = 'chatBotType' AND "value" <> 'text';
