"""An aiosmtpd handler for tests: every message received is written as
OUTDIR/msgN.eml (the DATA bytes exactly as received, CRLF line ends, dot
stuffing undone) with OUTDIR/msgN.json (envelope sender and recipients).

    PYTHONPATH=tests python3 -m aiosmtpd -n -l 127.0.0.1:PORT -c smtp_sink.Sink OUTDIR
"""
import json
import os


class Sink:
    def __init__(self, outdir):
        self.outdir = outdir
        self.n = 0

    @classmethod
    def from_cli(cls, parser, *args):
        if len(args) != 1:
            parser.error("smtp_sink.Sink takes one argument: OUTDIR")
        return cls(args[0])

    async def handle_DATA(self, server, session, envelope):
        self.n += 1
        base = os.path.join(self.outdir, "msg%d" % self.n)
        with open(base + ".json.tmp", "w") as f:
            json.dump({"mail_from": envelope.mail_from, "rcpt_tos": envelope.rcpt_tos}, f)
        os.rename(base + ".json.tmp", base + ".json")
        with open(base + ".eml.tmp", "wb") as f:
            f.write(envelope.original_content)
        os.rename(base + ".eml.tmp", base + ".eml")
        return "250 Message accepted for delivery"
