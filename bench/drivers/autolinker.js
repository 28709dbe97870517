'use strict';
// Peer: Autolinker.parse counting URL and email matches, line by line.
const path = require('path');
const AutolinkerModule = require(path.join(__dirname, '..', 'node_modules', 'autolinker'));
const Autolinker = AutolinkerModule.default || AutolinkerModule.Autolinker || AutolinkerModule;
const forEachBlock = require('./chunks');

const options = { urls: true, email: true, phone: false, mention: false, hashtag: false };
let count = 0;
// Autolinker parses its input as HTML: an unmatched '<' in plain text hides
// the rest of the block, so it is fed one line at a time.
const bytes = forEachBlock(process.argv[2], (text) => {
  for (const line of text.split('\n')) {
    if (line.length) count += Autolinker.parse(line, options).length;
  }
});
console.log(`urls=${count} bytes=${bytes}`);
