"""
Copies the Debian photos that recipes train on into DEST under their absolute paths, so that
`train.py --photos-root DEST` reads them on a machine where the packages are not installed (the GPU
machine: carry DEST). Photos from the repository (tests/fixtures) travel with the checkout.

  /usr/bin/python3 scripts/train/copy_photos.py DEST [RECIPE.json ...]   (default: every recipe in recipes/)
"""
import glob
import os
import shutil
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import data  # noqa: E402
from train import load_recipe  # noqa: E402


def main():
    if len(sys.argv) < 2:
        raise SystemExit(__doc__.strip())
    dest = sys.argv[1]
    recipes = sys.argv[2:] or sorted(glob.glob(os.path.join(os.path.dirname(os.path.abspath(__file__)), 'recipes', '*.json')))
    sets = sorted({s for r in recipes for s in load_recipe(r)['data']['photos']})
    photos = [(p, pkg) for p, pkg, _ in data.photo_list(sets) if os.path.isabs(p)]
    size = 0
    for p, pkg in photos:
        if not os.path.exists(p):
            raise SystemExit(f'missing {p}: apt-get install {pkg}')
        to = os.path.join(dest, p.lstrip('/'))
        os.makedirs(os.path.dirname(to), exist_ok=True)
        shutil.copy2(p, to)
        size += os.path.getsize(to)
    print(f'{len(photos)} photos of {", ".join(sets)}: {size / 2 ** 20:.1f} MiB in {dest}')


if __name__ == '__main__':
    main()
