"""
Checks of the training code, run by train.test.ts (needs Debian's python3-torch and python3-onnx):
  - every recipe builds exactly the net of the file it names, where that file is at hand
    (server/engines/weights/, or ../shared/nets/ beside the repository): every weight's shape matches;
  - every recipe, shrunk (narrow nets, small patches and batches, two fixture photos), trains 2 steps
    and writes its ONNX file and checkpoint; a fine-tune starts from its base; --resume counts on to 4;
    --init starts from a file; --seconds stops by itself.
TRAIN_TEST_OUT=DIR keeps the files there (train.test.ts runs them in onnxruntime).
"""
import argparse
import copy
import glob
import hashlib
import json
import os
import sys
import tempfile
import unittest

import onnx
import torch

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import data  # noqa: E402
import nets  # noqa: E402
import train  # noqa: E402

RECIPES = sorted(glob.glob(os.path.join(HERE, 'recipes', '*.json')))
FILE_DIRS = [os.path.join(data.ROOT, 'server', 'engines', 'weights'), os.path.join(data.ROOT, '..', 'shared', 'nets')]
COMMITTED = {'pixmill-sr-x2-v2', 'pixmill-sr-x2-v2-clean', 'pixmill-sr-x4-v2', 'pixmill-sr-x4-v2-clean', 'pixmill-sr-x2-small-v2', 'pixmill-denoise-v2', 'pixmill-denoise-v1', 'pixmill-deblur-v1', 'scratch-repair'}
data.SETS['test'] = [(f'tests/fixtures/{f}', 'tests/fixtures', 'CC0') for f in ('coffee.png', 'chelsea.png')]


def args(**kw):
    base = dict(recipe=None, batch=None, resume=None, steps=None, seconds=None, out=None, photos_root=None, init=None)
    return argparse.Namespace(**{**base, **kw})


def run(**kw):
    a = args(**kw)
    os.makedirs(a.out, exist_ok=True)
    return train.run_jobs(train.plan(a), a)


def meta(path):
    return {p.key: p.value for p in onnx.load(path).metadata_props}


def shrink(r):
    """The same recipe (net kind, pairs, loss, schedule, init) at a size that trains in a moment."""
    r = copy.deepcopy(r)
    n = r['net']
    n.update({'SRNet': {'channels': 8, 'blocks': 1}, 'DenoiseNet': {'channels': [8, 8, 8]}, 'UNet': {'channels': [4, 4, 4, 4]}}[n['arch']])
    r['data'].update(photos=['test'], pyramid={'widths': [240]}, patch=16 if n['arch'] == 'SRNet' else 32, batch=2, workers=1)
    if 'adversarial' in r['train']:
        r['train']['adversarial']['channels'] = 4
    init = r.get('init') or {}
    if isinstance(init.get('recipe'), dict):
        r['init']['recipe'] = shrink(init['recipe'])
    elif init.get('file'):
        del r['init']  # the real file does not fit the narrow net; --init is checked on its own below
    return r


class RecipesDescribeTheFiles(unittest.TestCase):
    def test_every_file_at_hand_loads_into_the_net_its_recipe_builds(self):
        checked = []
        for path in RECIPES:
            r = train.load_recipe(path)
            files = [f for f in (os.path.join(d, r['file'] + '.onnx') for d in FILE_DIRS) if os.path.exists(f)]
            for f in files:
                with self.subTest(recipe=r['name'], file=f):
                    net = nets.build(r['net'])
                    nets.load_onnx_weights(net, r['net'], f)
                    self.assertEqual(set(net.state_dict()), set(nets.onnx_weights(r['net'], f)))
            if files:
                checked.append(r['file'])
        print(f'\n{len(checked)} recipes match their files: {", ".join(sorted(checked))}', file=sys.stderr)
        self.assertTrue(COMMITTED <= set(checked))

    def test_a_net_of_another_width_does_not_load(self):
        spec = {'arch': 'SRNet', 'scale': 2, 'channels': 64, 'blocks': 8}
        with self.assertRaises(SystemExit):
            nets.load_onnx_weights(nets.build(spec), spec, os.path.join(FILE_DIRS[0], 'pixmill-sr-x2-small-v2.onnx'))


class TrainingRuns(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.TemporaryDirectory()
        cls.dir = os.environ.get('TRAIN_TEST_OUT') or cls.tmp.name
        cls.recipes = os.path.join(cls.dir, 'recipes')
        os.makedirs(cls.recipes, exist_ok=True)
        cls.shrunk = {}
        for path in RECIPES:
            r = shrink(train.load_recipe(path))
            cls.shrunk[r['name']] = r
            with open(os.path.join(cls.recipes, r['name'] + '.json'), 'w') as f:
                json.dump({k: v for k, v in r.items() if k != 'name'}, f)
        cls.out = os.path.join(cls.dir, 'two')
        cls.status = run(batch=[os.path.join(cls.recipes, n + '.json') for n in cls.shrunk], steps=2, out=cls.out)

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    def test_every_recipe_trains_two_steps_and_writes_its_files(self):
        self.assertEqual(self.status, 0)
        for name, r in self.shrunk.items():
            with self.subTest(recipe=name):
                f = os.path.join(self.out, r['file'] + '.onnx')
                m = meta(f)
                self.assertEqual(m['steps'], '2')
                self.assertEqual(json.loads(m['recipe']), r)
                self.assertEqual(m['recipe_sha256'], hashlib.sha256(m['recipe'].encode()).hexdigest())
                self.assertTrue(m['commit'])
                nets.load_onnx_weights(nets.build(r['net']), r['net'], f)
                ck = torch.load(os.path.join(self.out, r['file'] + '.ckpt'), map_location='cpu')
                self.assertEqual((ck['step'], ck['recipe']), (2, r))
                self.assertIn('state', ck['opt'])

    def test_a_fine_tune_starts_from_its_base(self):
        m = meta(os.path.join(self.out, self.shrunk['sr_x2_v2_clean']['file'] + '.onnx'))
        self.assertEqual(m['init'], 'pixmill-sr-x2-v2-base after 2 steps')
        self.assertEqual(meta(os.path.join(self.out, self.shrunk['sr_x2_v2_base']['file'] + '.onnx'))['init'], 'none')

    def test_resume_counts_on(self):
        out = os.path.join(self.dir, 'four')
        self.assertEqual(run(resume=os.path.join(self.out, 'pixmill-sr-x4-v2-clean.ckpt'), steps=4, out=out), 0)
        m, before = meta(os.path.join(out, 'pixmill-sr-x4-v2-clean.onnx')), meta(os.path.join(self.out, 'pixmill-sr-x4-v2-clean.onnx'))
        self.assertEqual(m['steps'], '4')
        self.assertEqual((m['recipe_sha256'], m['init']), (before['recipe_sha256'], before['init']))
        self.assertEqual(torch.load(os.path.join(out, 'pixmill-sr-x4-v2-clean.ckpt'), map_location='cpu')['step'], 4)

    def test_init_from_a_file_and_a_time_budget(self):
        out = os.path.join(self.dir, 'init')
        start = os.path.join(self.out, 'pixmill-denoise-v1.onnx')
        self.assertEqual(run(recipe=os.path.join(self.recipes, 'deblur.json'), init=start, seconds=2, out=out), 0)
        m = meta(os.path.join(out, 'pixmill-deblur-v1.onnx'))
        with open(start, 'rb') as f:
            self.assertEqual(m['init'], f'pixmill-denoise-v1.onnx sha256 {hashlib.sha256(f.read()).hexdigest()[:12]}')
        self.assertGreater(int(m['steps']), 0)


if __name__ == '__main__':
    unittest.main(verbosity=2)
