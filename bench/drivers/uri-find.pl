#!/usr/bin/perl
# Peer: URI::Find (or URI::Find::Schemeless with --schemeless) counting the
# URIs in FILE, fed in blocks that end at a newline.
use strict;
use warnings;

my $schemeless = @ARGV && $ARGV[0] eq '--schemeless' ? shift @ARGV : 0;
my $file = shift @ARGV or die "usage: uri-find.pl [--schemeless] FILE\n";
my $class = $schemeless ? 'URI::Find::Schemeless' : 'URI::Find';
eval "require $class; 1" or die "cannot load $class: $@";

my $count = 0;
my $finder = $class->new(sub { $count++; return $_[1] });

open(my $fh, '<:raw', $file) or die "cannot read $file: $!\n";
my ($carry, $bytes) = ('', 0);
while (1) {
    my $n = read($fh, my $buf, 1 << 20);
    die "read: $!\n" unless defined $n;
    last if $n == 0;
    $bytes += $n;
    $buf = $carry . $buf;
    my $nl = rindex($buf, "\n");
    if ($nl < 0 && length($buf) < (16 << 20)) { $carry = $buf; next; }
    my $end = $nl < 0 ? length($buf) : $nl + 1;
    $carry = substr($buf, $end);
    my $block = substr($buf, 0, $end);
    $finder->find(\$block);
}
$finder->find(\$carry) if length $carry;
print "urls=$count bytes=$bytes\n";
