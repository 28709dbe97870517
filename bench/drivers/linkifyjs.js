'use strict';
// Peer: linkifyjs (linkify.find) counting links, mail addresses included.
const path = require('path');
const linkify = require(path.join(__dirname, '..', 'node_modules', 'linkifyjs'));
const forEachBlock = require('./chunks');

let count = 0;
const bytes = forEachBlock(process.argv[2], (text) => {
  count += linkify.find(text).length;
});
console.log(`urls=${count} bytes=${bytes}`);
