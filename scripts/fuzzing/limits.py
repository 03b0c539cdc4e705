"""What a case may not pass: the documented exit codes, the names a run may not leave, the
longest message, and the memory and atlas bounds (docs/fuzzing.md "What a case must do")."""

import os
import re


DOCUMENTED_EXIT_CODES = {0, 1, 64, 65, 66, 69, 70, 73, 74, 130}
TEMPORARY_NAME = re.compile(r"^\..+\.\d+\.\d+\.tmp$")
PROBE_NAME = re.compile(r"^\.throbber-probe\.")
MAX_MESSAGE = 2000
# A case given under 1 MiB of files may not pass 1 GiB of peak RSS; past RSS_CAP_KIB any case is
# killed, so that one bug cannot take the machine down with it.
INPUT_LIMIT = 1 << 20
RSS_LIMIT_KIB = 1 << 20
RSS_CAP_KIB = 6 << 20
# Every refusal, and reproduce, verify, compare and scenes on inputs under 1 MB, stay within 64 MB
# (issue 46's target).
INPUT_RSS_KIB = 64 << 10
# Atlases linear in pages: 10 MB for a 4,000-page sheet (issue 46's target) is 2,621 bytes a page.
ATLAS_BYTES_PER_PAGE = (10 << 20) // 4000
PAGE_KIB = os.sysconf("SC_PAGE_SIZE") // 1024
