require ["body", "copy", "date", "envelope", "fileinto", "imap4flags", "mailbox", "regex", "reject", "relational", "subaddress", "vacation", "variables"];
if size :over 869 {
set :length "v" "${1}";
keep;
} elsif not currentdate :value "lt" "year" "2200" {
if anyof (size :over 2K, date :originalzone :value "ge" "received" "month" "11") {
if not hasflag :contains ["\\Deleted"] {
fileinto :copy "Invoices";
vacation :subject "Re: your mail" "I am away.";
fileinto :copy :create "Trash";
} elsif address :user :is ["to"] ["BILLING", "billing"] {
removeflag ["\\Draft"];
discard;
} elsif currentdate :value "lt" "year" "2020" {
vacation :subject "Away" "I am away.";
addflag "\\Flagged \\Flagged";
} elsif not header :regex "reply-to" "Pa.*" {
setflag ["$Label1"];
keep;
} else {
addflag ["Junk", "\\Flagged \\seen"];
}
discard;
}
}
reject "Mailbox closed";
if header :contains "cc" ["EXAMPLE", "ME"] {
if header :contains ["list-id"] ["rize", "UR"] {
if not address :detail :contains ["to", "cc"] ["oice", "OR"] {
fileinto :copy "Архив";
} elsif date :is "x-nothing-here" "date" "2026" {
addflag ["\\Deleted"];
}
reject "Go away";
if exists "x-nothing-here" {
set "v" "${1}";
}
}
} elsif anyof (anyof (currentdate :value "ge" "year" "2200", size :under 612)) {
if header :contains ["sender"] "ele" {
if envelope :user :contains "to" ["billin", "WO"] {
setflag ["Junk"];
} elsif anyof (anyof (exists ["precedence", "received"], body :matches ["120*"], date :zone "+0300" :contains "date" "day" "*:00:*")) {
keep;
} elsif false {
redirect "archive@example.net";
set :upper :upperfirst "v" "${1}";
} elsif address :value "gt" ["cc"] "3" {
setflag ["Junk", "$Label1"];
} else {
fileinto :copy :flags ["\\Seen"] "Invoices";
}
}
}
if string :matches "" "ext*" {
if envelope :user :comparator "i;ascii-casemap" "to" "Your" {
if not false {
addflag ["Junk", "\\Draft"];
} elsif envelope :all :contains "from" ["nvoices@ex", "voices@exa"] {
redirect "archive@example.net";
}
if body :content "text" :matches "*чё*" {
fileinto :flags ["\\Draft"] "Spam";
} elsif body :contains ["20"] {
discard;
}
reject "Нет";
} elsif date :zone "+0300" :matches "date" "hour" "23" {
if allof (true, date :originalzone :is "date" "zone" "12", size :under 844) {
keep;
fileinto :create :flags ["\\Seen", "\\seen"] "Invoices";
keep :flags "$Label1 Junk";
}
if envelope :detail :is ["to"] ["WON", "invoices"] {
redirect "team+sieve@work.example";
fileinto "Архив";
}
} else {
discard;
set :lower "v" "x${0}y";
}
keep;
discard;
} elsif not header :matches "x-spam-score" ["on*", "2?*"] {
if hasflag :is "\\Draft" {
if string :is :comparator "i;ascii-casemap" "" "ral tex" {
redirect "archive@example.net";
set :lower "v" "${1}";
discard;
} else {
removeflag ["$Label1", "\\seen"];
setflag ["$Label1", "\\Seen"];
}
}
vacation "I am away.";
} elsif anyof (allof (string :contains "${v}" "liter", true)) {
vacation :days 26 "I am away.";
fileinto :create :flags ["\\seen \\Draft"] "Архив";
} elsif body :content ["text"] :matches ["Rele*"] {
vacation :days 27 "I am away.";
redirect "Ann.Lee@Example.COM";
}
